#[test]
#[ignore]
fn scratch() {
    let env = super::env();
    for sql in std::env::var("SQLS").unwrap().split(";;") {
        println!("{sql}\n  => {:?}\n", crate::translate(sql, &env));
    }
}
