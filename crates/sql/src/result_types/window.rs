//! MariaDB's types for window functions (`f(...) OVER (...)`), checked against the column
//! `CREATE TABLE … SELECT` makes on MariaDB 10.11: the numbering functions (`ROW_NUMBER`,
//! `RANK`, `DENSE_RANK`, `NTILE`) and `COUNT` are `bigint(21) NOT NULL`, `PERCENT_RANK`
//! and `CUME_DIST` doubles shown with 10 decimals, the functions that return a row's value
//! (`LAG`, `LEAD`, `FIRST_VALUE`, `LAST_VALUE`, `NTH_VALUE`) that value's type, nullable,
//! and `SUM`, `AVG`, `MIN`, `MAX` as their aggregates.

use sqlparser::ast::Function;

use super::{Class, Infer, Ty};

impl Infer<'_> {
    /// The type of the window function `name` (`f` has its OVER clause).
    pub(super) fn window(&self, name: &str, f: &Function) -> Option<Ty> {
        match name {
            "row_number" | "rank" | "dense_rank" | "ntile" | "count" => {
                Some(Ty::computed_int(21, false, false).with_len(21))
            }
            "percent_rank" | "cume_dist" => Some(Ty::new(Class::Double, 17, 10, true)),
            "lag" | "lead" | "first_value" | "last_value" | "nth_value" => {
                let value = crate::typing::args(f).first().copied()?;
                Some(self.expr(value)?.nullable(true))
            }
            "sum" | "avg" | "min" | "max" => {
                let aggregate = Function {
                    over: None,
                    ..f.clone()
                };
                self.function(&aggregate)
            }
            _ => None,
        }
    }
}
