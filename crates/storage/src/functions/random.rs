//! `RAND()`, `RAND(n)` and `RANDOM_BYTES(n)`.
//!
//! `RAND(n)` is MySQL's seeded generator (`my_rnd`), so that a seed gives MariaDB's very
//! sequence: with a constant seed the statement draws the next number of one sequence per
//! row (SQLite keeps the generator as the constant argument's auxiliary data for the
//! statement's run); with a seed that varies (`RAND(a)`) each call starts a sequence from
//! its own seed, as MySQL re-seeds per row.

use std::sync::Mutex;

use rusqlite::{Connection, Result};

use super::calendar::int_arg;
use super::VOLATILE;

/// `my_rnd`'s modulus.
const MAX_VALUE: u64 = 0x3FFF_FFFF;

/// MySQL's `my_rnd_struct`.
#[derive(Debug, PartialEq, Eq)]
struct Generator {
    seed1: u64,
    seed2: u64,
}

impl Generator {
    /// `Item_func_rand::seed_random`: the seed read as a 32-bit unsigned integer.
    fn seeded(seed: i64) -> Generator {
        let n = u64::from(seed as u32);
        let seed1 = u64::from(n.wrapping_mul(0x10001).wrapping_add(55_555_555) as u32);
        let seed2 = u64::from(n.wrapping_mul(0x1000_0001) as u32);
        Generator {
            seed1: seed1 % MAX_VALUE,
            seed2: seed2 % MAX_VALUE,
        }
    }

    /// `my_rnd`: the next number in [0, 1).
    fn next(&mut self) -> f64 {
        self.seed1 = (self.seed1 * 3 + self.seed2) % MAX_VALUE;
        self.seed2 = (self.seed1 + self.seed2 + 33) % MAX_VALUE;
        self.seed1 as f64 / MAX_VALUE as f64
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("rand", -1, VOLATILE, |ctx| {
        if ctx.is_empty() {
            return Ok(rand::random::<f64>());
        }
        let generator =
            ctx.get_or_create_aux(0, |seed| -> Result<_, std::convert::Infallible> {
                Ok(Mutex::new(Generator::seeded(int_arg(seed).unwrap_or(0))))
            })?;
        let mut g = generator.lock().unwrap_or_else(|e| e.into_inner());
        Ok(g.next())
    })?;
    // RANDOM_BYTES(n): n random bytes, for 0 <= n <= 1024 (else NULL, as in MariaDB).
    c.create_scalar_function("random_bytes", 1, VOLATILE, |ctx| {
        Ok(int_arg(ctx.get_raw(0))
            .filter(|n| (0..=1024).contains(n))
            .map(|n| (0..n).map(|_| rand::random::<u8>()).collect::<Vec<u8>>()))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MariaDB 10.11: `CAST(RAND(2) * 1000 AS UNSIGNED)` over three rows, and `RAND(1)`.
    #[test]
    fn mariadb_sequences() {
        let mut g = Generator::seeded(2);
        let thousandths: Vec<u64> = (0..3).map(|_| (g.next() * 1000.0).round() as u64).collect();
        assert_eq!(thousandths[0], 656);
        assert_eq!((Generator::seeded(1).next() * 1000.0).round() as u64, 405);
    }
}
