//! MariaDB's `AES_ENCRYPT(str, key)` and `AES_DECRYPT(crypt, key)`: AES-128 in ECB mode
//! with PKCS#7 padding, the key folded into 16 bytes by XOR (`my_aes_create_key`), so that
//! data encrypted by MariaDB decrypts here and the other way round. A wrong key or a
//! damaged ciphertext (a bad length or padding) decrypts to NULL, as in MariaDB.

use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use aes::Aes128;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::{bytes_of, PURE};

const BLOCK: usize = 16;

/// The cipher of a key: its bytes XORed into 16 (`rkey[i % 16] ^= key[i]`).
fn cipher(key: &[u8]) -> Aes128 {
    let mut folded = [0u8; BLOCK];
    for (i, b) in key.iter().enumerate() {
        folded[i % BLOCK] ^= b;
    }
    Aes128::new(&GenericArray::from(folded))
}

fn encrypt(data: &[u8], key: &[u8]) -> Vec<u8> {
    let aes = cipher(key);
    let pad = BLOCK - data.len() % BLOCK;
    let mut out = data.to_vec();
    out.resize(data.len() + pad, pad as u8);
    for block in out.chunks_exact_mut(BLOCK) {
        aes.encrypt_block(GenericArray::from_mut_slice(block));
    }
    out
}

fn decrypt(data: &[u8], key: &[u8]) -> Option<Vec<u8>> {
    if data.is_empty() || !data.len().is_multiple_of(BLOCK) {
        return None;
    }
    let aes = cipher(key);
    let mut out = data.to_vec();
    for block in out.chunks_exact_mut(BLOCK) {
        aes.decrypt_block(GenericArray::from_mut_slice(block));
    }
    let pad = *out.last()? as usize;
    let padded =
        (1..=BLOCK).contains(&pad) && out[out.len() - pad..].iter().all(|b| *b as usize == pad);
    padded.then(|| {
        out.truncate(out.len() - pad);
        out
    })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    for (name, encrypting) in [("aes_encrypt", true), ("aes_decrypt", false)] {
        c.create_scalar_function(name, 2, PURE, move |ctx| {
            let (data, key) = match (ctx.get_raw(0), ctx.get_raw(1)) {
                (ValueRef::Null, _) | (_, ValueRef::Null) => return Ok(None),
                (d, k) => (bytes_of(d), bytes_of(k)),
            };
            if encrypting {
                return Ok(Some(Value::Blob(encrypt(&data, &key))));
            }
            Ok(decrypt(&data, &key).map(Value::Blob))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(v: &[u8]) -> String {
        v.iter().map(|b| format!("{b:02X}")).collect()
    }

    #[test]
    fn matches_mariadb_and_round_trips() {
        // Values from MariaDB 10.11: HEX(AES_ENCRYPT('abc', '1')), ...
        assert_eq!(
            hex(&encrypt(b"abc", b"1")),
            "1644B28E0018B85296932893EAE38EB3"
        );
        assert_eq!(hex(&encrypt(b"", b"a")), "0EE48611167765B43EABB54FA548BFE1");
        assert_eq!(
            hex(&encrypt(b"0123456789abcdef", b"key")),
            "408C56DCC43A8EC2EE11B36B2A6DA83EC717530F41F320757B4AA1BFAF11C42E"
        );
        // A key longer than 16 bytes folds into 16.
        assert_eq!(
            hex(&encrypt(b"abc", b"01234567890123456789")),
            "C5ED3FB8AC30F0D5FB84F8F45D52AB89"
        );
        assert_eq!(decrypt(&encrypt(b"abc", b"1"), b"1").unwrap(), b"abc");
        assert_eq!(decrypt(&encrypt(b"", b"a"), b"a").unwrap(), b"");
        assert_eq!(decrypt(b"a", b"a"), None);
        assert_eq!(decrypt(b"", b"a"), None);
        assert_eq!(decrypt(&encrypt(b"abc", b"1"), b"2"), None);
    }
}
