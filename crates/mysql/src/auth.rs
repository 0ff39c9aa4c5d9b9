//! Authentication: `mysql_native_password` against the users of the configuration.
//!
//! A user has a name, a password (stored as MySQL does, SHA1(SHA1(password))) and the
//! hosts it may connect from (`localhost` = loopback addresses, `%` = anywhere, or exact
//! addresses, `%` wildcards allowed). Without configured users, `root` with an empty
//! password may connect from loopback only.

use sha1::{Digest, Sha1};
use std::net::IpAddr;

/// One account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// User name.
    pub name: String,
    /// SHA1(SHA1(password)); None for an empty password.
    pub hash: Option<[u8; 20]>,
    /// Host patterns it may connect from.
    pub hosts: Vec<String>,
}

impl User {
    /// An account from a clear-text password ("" = none).
    pub fn with_password(name: &str, password: &str, hosts: Vec<String>) -> User {
        let hash = (!password.is_empty()).then(|| double_sha1(password.as_bytes()));
        User {
            name: name.into(),
            hash,
            hosts,
        }
    }

    /// An account from MySQL's hash form (`*` followed by 40 hex digits, as in
    /// `SELECT PASSWORD('x')` / `mysql.user.authentication_string`).
    pub fn with_hash(name: &str, hash: &str, hosts: Vec<String>) -> Result<User, String> {
        let hex = hash.strip_prefix('*').unwrap_or(hash);
        if hex.len() != 40 {
            return Err(format!(
                "password hash for '{name}' must be '*' and 40 hex digits"
            ));
        }
        let mut h = [0u8; 20];
        for (i, b) in h.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                .map_err(|_| format!("password hash for '{name}' is not hexadecimal"))?;
        }
        Ok(User {
            name: name.into(),
            hash: Some(h),
            hosts,
        })
    }

    fn host_allowed(&self, ip: IpAddr) -> bool {
        self.hosts.iter().any(|pattern| host_matches(pattern, ip))
    }
}

fn host_matches(pattern: &str, ip: IpAddr) -> bool {
    match pattern {
        "%" => true,
        "localhost" => ip.is_loopback(),
        p => like(p, &ip.to_string()),
    }
}

fn like(p: &str, s: &str) -> bool {
    match p.split_once('%') {
        None => p == s,
        Some((head, tail)) => {
            s.starts_with(head)
                && (0..=s.len() - head.len()).any(|i| like(tail, &s[head.len() + i..]))
        }
    }
}

fn sha1(parts: &[&[u8]]) -> [u8; 20] {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// SHA1(SHA1(password)): what the server stores.
pub fn double_sha1(password: &[u8]) -> [u8; 20] {
    sha1(&[&sha1(&[password])])
}

/// The client's answer to the scramble for a password (what a client computes).
pub fn scramble_response(password: &[u8], salt: &[u8]) -> [u8; 20] {
    let h1 = sha1(&[password]);
    let x = sha1(&[salt, &sha1(&[&h1])]);
    let mut out = [0u8; 20];
    for i in 0..20 {
        out[i] = h1[i] ^ x[i];
    }
    out
}

/// The accounts.
#[derive(Clone, Debug)]
pub struct Users {
    users: Vec<User>,
}

impl Users {
    /// The given accounts; none means the default `root`@localhost without password.
    pub fn new(users: Vec<User>) -> Users {
        if users.is_empty() {
            Users {
                users: vec![User::with_password("root", "", vec!["localhost".into()])],
            }
        } else {
            Users { users }
        }
    }

    /// Checks a `mysql_native_password` login.
    pub fn verify(&self, user: &str, ip: IpAddr, salt: &[u8], response: &[u8]) -> bool {
        let Some(u) = self
            .users
            .iter()
            .find(|u| u.name == user && u.host_allowed(ip))
        else {
            return false;
        };
        match &u.hash {
            None => response.is_empty(),
            Some(h2) => {
                if response.len() != 20 {
                    return false;
                }
                let x = sha1(&[salt, h2]);
                let mut h1 = [0u8; 20];
                for i in 0..20 {
                    h1[i] = response[i] ^ x[i];
                }
                sha1(&[&h1]) == *h2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    const REMOTE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 1, 2, 3));

    #[test]
    fn native_password_round_trip() {
        let salt = b"abcdefghij0123456789";
        let users = Users::new(vec![User::with_password("app", "s3cret", vec!["%".into()])]);
        assert!(users.verify("app", REMOTE, salt, &scramble_response(b"s3cret", salt)));
        assert!(!users.verify("app", REMOTE, salt, &scramble_response(b"wrong", salt)));
        assert!(!users.verify("app", REMOTE, salt, b""));
        assert!(!users.verify("nobody", REMOTE, salt, b""));
    }

    #[test]
    fn default_root_only_from_loopback() {
        let users = Users::new(vec![]);
        assert!(users.verify("root", LOCAL, b"x", b""));
        assert!(!users.verify("root", REMOTE, b"x", b""));
        assert!(!users.verify("root", LOCAL, b"x", &[1; 20]));
    }

    #[test]
    fn mysql_hash_form_and_host_patterns() {
        // SELECT PASSWORD('pw') in MySQL 5.7
        let u = User::with_hash(
            "a",
            "*D821809F681A40A6E379B50D0463EFAE20BDD122",
            vec!["10.1.%".into()],
        )
        .unwrap();
        assert_eq!(u.hash, Some(double_sha1(b"pw")));
        let users = Users::new(vec![u]);
        let salt = b"01234567890123456789";
        assert!(users.verify("a", REMOTE, salt, &scramble_response(b"pw", salt)));
        assert!(!users.verify("a", LOCAL, salt, &scramble_response(b"pw", salt)));
        assert!(User::with_hash("a", "*XYZ", vec![]).is_err());
    }
}
