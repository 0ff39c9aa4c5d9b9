//! A random write workload for the apply path: what any node commits must apply on every
//! node.
//!
//! Three tables with several UNIQUE keys and foreign keys (one with ON DELETE / ON UPDATE
//! CASCADE, one without actions), written by INSERT, INSERT IGNORE, REPLACE, INSERT ... ON
//! DUPLICATE KEY UPDATE, UPDATE (of unique columns and of the primary key) and DELETE, with
//! swaps of unique values inside transactions, over small value domains so that rows
//! collide all the time; interleaved with schema changes of the same tables (columns added
//! and dropped, indexes, renames, DROP + CREATE with another column order, TRUNCATE). Only
//! the statements are random; the caller runs them on real sessions and checks that every
//! node ends with the same rows. Same seed, same statements.

/// The database the workload uses.
pub const DATABASE: &str = "rnd";

/// Statements that create the workload's schema (run once, on any node).
pub fn schema() -> Vec<String> {
    vec![
        format!("CREATE DATABASE {DATABASE}"),
        format!(
            "CREATE TABLE {DATABASE}.p (id INT PRIMARY KEY, u VARCHAR(8) UNIQUE, v INT, w INT, \
             UNIQUE KEY vw (v, w))"
        ),
        format!(
            "CREATE TABLE {DATABASE}.c (id INT PRIMARY KEY, pu VARCHAR(8), tag VARCHAR(8) UNIQUE, \
             n INT NOT NULL DEFAULT 0, FOREIGN KEY (pu) REFERENCES {DATABASE}.p(u) \
             ON DELETE CASCADE ON UPDATE CASCADE)"
        ),
        create_g(false),
    ]
}

/// The tables whose rows must match on every node.
pub const TABLES: [&str; 3] = ["p", "c", "g"];

fn create_g(reordered: bool) -> String {
    let cols = if reordered {
        "k INT UNIQUE, id INT PRIMARY KEY, pid INT"
    } else {
        "id INT PRIMARY KEY, pid INT, k INT UNIQUE"
    };
    format!("CREATE TABLE {DATABASE}.g ({cols}, FOREIGN KEY (pid) REFERENCES {DATABASE}.p(id))")
}

/// What to run next: statements for one node's session, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// Index of the node (0-based, below the node count given to [`Workload::new`]).
    pub node: usize,
    /// The statements (`BEGIN`, `COMMIT`, DML, DDL, ...).
    pub statements: Vec<String>,
}

/// The generator.
pub struct Workload {
    rng: u64,
    nodes: usize,
    open: Vec<bool>,
}

impl Workload {
    /// A workload over `nodes` nodes from `seed`.
    pub fn new(seed: u64, nodes: usize) -> Workload {
        Workload {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            nodes,
            open: vec![false; nodes],
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }

    /// Whether node `i`'s session has a transaction open, as the workload believes.
    pub fn is_open(&self, i: usize) -> bool {
        self.open[i]
    }

    /// Tells the workload that node `i`'s transaction ended on its own (a deadlock or
    /// certification failure rolls it back).
    pub fn ended(&mut self, i: usize) {
        self.open[i] = false;
    }

    /// The next action.
    pub fn next_action(&mut self) -> Action {
        let node = self.below(self.nodes as u64) as usize;
        let statements = if self.open[node] {
            match self.below(100) {
                0..=14 => {
                    self.open[node] = false;
                    vec!["COMMIT".into()]
                }
                15..=17 => {
                    self.open[node] = false;
                    vec!["ROLLBACK".into()]
                }
                _ => self.dml(),
            }
        } else {
            match self.below(100) {
                0..=39 => {
                    self.open[node] = true;
                    let mut s = vec!["BEGIN".to_string()];
                    s.extend(self.dml());
                    s
                }
                40..=92 => self.dml(),
                _ => self.ddl(),
            }
        };
        Action { node, statements }
    }

    /// Statements that end every open transaction (COMMIT), one action per node.
    pub fn finish(&mut self) -> Vec<Action> {
        (0..self.nodes)
            .filter(|i| std::mem::take(&mut self.open[*i]))
            .map(|node| Action {
                node,
                statements: vec!["COMMIT".into()],
            })
            .collect()
    }

    fn u(&mut self) -> String {
        // Upper and lower case collide: MySQL's default collation ignores case.
        self.pick(&["a", "b", "c", "d", "e", "f", "A", "B"])
            .to_string()
    }

    fn dml(&mut self) -> Vec<String> {
        let d = DATABASE;
        let id = self.below(12) + 1;
        let id2 = self.below(12) + 1;
        let (u, u2) = (self.u(), self.u());
        let (v, w) = (self.below(4), self.below(3));
        let tag = format!("{}{}", self.pick(&["t", "T"]), self.below(6));
        let tag2 = format!("{}{}", self.pick(&["t", "T"]), self.below(6));
        let k = self.below(8);
        let one = |s: String| vec![s];
        match self.below(22) {
            0 => one(format!(
                "INSERT INTO {d}.p (id, u, v, w) VALUES ({id}, '{u}', {v}, {w})"
            )),
            1 => one(format!(
                "INSERT IGNORE INTO {d}.p (id, u, v, w) VALUES ({id}, '{u}', {v}, {w})"
            )),
            2 => one(format!(
                "REPLACE INTO {d}.p (id, u, v, w) VALUES ({id}, '{u}', {v}, {w})"
            )),
            3 => one(format!(
                "INSERT INTO {d}.p (id, u, v, w) VALUES ({id}, '{u}', {v}, {w}) \
                 ON DUPLICATE KEY UPDATE u = '{u2}', w = {}",
                self.below(3)
            )),
            4 => one(format!("UPDATE {d}.p SET u = '{u}' WHERE id = {id}")),
            5 => one(format!("UPDATE {d}.p SET v = {v}, w = {w} WHERE u = '{u}'")),
            6 => one(format!("UPDATE {d}.p SET id = {id2} WHERE id = {id}")),
            7 => one(format!("DELETE FROM {d}.p WHERE id = {id}")),
            8 => one(format!("DELETE FROM {d}.p WHERE u = '{u}'")),
            9 => vec![
                format!("UPDATE {d}.p SET u = 'tmp' WHERE u = '{u}'"),
                format!("UPDATE {d}.p SET u = '{u}' WHERE u = '{u2}'"),
                format!("UPDATE {d}.p SET u = '{u2}' WHERE u = 'tmp'"),
            ],
            10 => one(format!(
                "INSERT INTO {d}.c (id, pu, tag) VALUES ({id}, '{u}', '{tag}')"
            )),
            11 => one(format!(
                "REPLACE INTO {d}.c (id, pu, tag, n) VALUES ({id}, '{u}', '{tag}', {k})"
            )),
            12 => one(format!(
                "INSERT INTO {d}.c (id, pu, tag) VALUES ({id}, '{u}', '{tag}') \
                 ON DUPLICATE KEY UPDATE n = n + 1, tag = '{tag2}'"
            )),
            13 => one(format!("UPDATE {d}.c SET tag = '{tag}' WHERE id = {id}")),
            14 => one(format!("UPDATE {d}.c SET n = n + 1 WHERE pu = '{u}'")),
            15 => one(format!("DELETE FROM {d}.c WHERE tag = '{tag}'")),
            16 => vec![
                format!("UPDATE {d}.c SET tag = 'tmp' WHERE tag = '{tag}'"),
                format!("UPDATE {d}.c SET tag = '{tag}' WHERE tag = '{tag2}'"),
                format!("UPDATE {d}.c SET tag = '{tag2}' WHERE tag = 'tmp'"),
            ],
            17 => one(format!(
                "INSERT INTO {d}.g (id, pid, k) VALUES ({id}, {id2}, {k})"
            )),
            18 => one(format!(
                "REPLACE INTO {d}.g (id, pid, k) VALUES ({id}, {id2}, {k})"
            )),
            19 => one(format!("UPDATE {d}.g SET k = {k} WHERE id = {id}")),
            20 => one(format!("DELETE FROM {d}.g WHERE k = {k}")),
            _ => vec![
                format!("DELETE FROM {d}.p WHERE u = '{u}'"),
                format!("INSERT INTO {d}.p (id, u, v, w) VALUES ({id2}, '{u}', {v}, {w})"),
            ],
        }
    }

    fn ddl(&mut self) -> Vec<String> {
        let d = DATABASE;
        let reordered = self.below(2) == 0;
        let one = |s: String| vec![s];
        match self.below(10) {
            0 => one(format!(
                "ALTER TABLE {d}.g ADD COLUMN x INT NOT NULL DEFAULT 0"
            )),
            1 => one(format!("ALTER TABLE {d}.g DROP COLUMN x")),
            2 => one(format!("ALTER TABLE {d}.p ADD COLUMN z VARCHAR(8)")),
            3 => one(format!("ALTER TABLE {d}.p DROP COLUMN z")),
            4 => one(format!("CREATE INDEX ix ON {d}.g (pid, k)")),
            5 => one(format!("DROP INDEX ix ON {d}.g")),
            6 => vec![
                format!("RENAME TABLE {d}.g TO {d}.g2"),
                format!("RENAME TABLE {d}.g2 TO {d}.g"),
            ],
            7 => vec![format!("DROP TABLE {d}.g"), create_g(reordered)],
            8 => one(format!("TRUNCATE TABLE {d}.g")),
            _ => vec![
                format!("ALTER TABLE {d}.c ADD UNIQUE KEY nk (n, tag)"),
                format!("ALTER TABLE {d}.c DROP INDEX nk"),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_actions_and_every_kind_appears() {
        let run = |seed| {
            let mut w = Workload::new(seed, 3);
            (0..2000).map(|_| w.next_action()).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let all: Vec<String> = run(7).into_iter().flat_map(|a| a.statements).collect();
        for needle in [
            "REPLACE",
            "ON DUPLICATE",
            "RENAME",
            "DROP TABLE",
            "COMMIT",
            "tmp",
        ] {
            assert!(all.iter().any(|s| s.contains(needle)), "{needle}");
        }
    }
}
