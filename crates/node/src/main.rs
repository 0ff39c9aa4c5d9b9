//! `tutti`: parse the command line, run the command, exit with one clear line on error.

use clap::Parser;
use std::process::ExitCode;
use tutti::cli::{Cli, ClusterCommand, Command, MemberCommand};
use tutti::local_cluster;
use tutti::Config;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(
                e.kind(),
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One line: clap's first line ("error: ..."), without the usage block; a line
            // ending in ':' is followed by what it announces (e.g. the missing arguments).
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut line = lines
                .next()
                .unwrap_or("error: invalid arguments")
                .to_string();
            while line.ends_with(':') {
                match lines.next().filter(|l| !l.starts_with("Usage:")) {
                    Some(next) => line = format!("{line} {next}"),
                    None => break,
                }
            }
            eprintln!("{line} (see 'tutti --help')");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Start(args) => {
            let config = match Config::load(&args.overrides()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            tutti::logging::init(&config.log_level);
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("tokio runtime");
            match runtime.block_on(tutti::node::run(config)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Cluster(cmd) => {
            let result = match cmd {
                ClusterCommand::Up {
                    nodes,
                    base,
                    log_level,
                } => local_cluster::up(&base, nodes.map(usize::from), &log_level).map(|()| true),
                ClusterCommand::Status { base } => local_cluster::status(&base),
                ClusterCommand::Down { base } => local_cluster::down(&base).map(|()| true),
            };
            exit(result)
        }
        Command::Member(cmd) => {
            use tutti::member;
            let result = match cmd {
                MemberCommand::List { target } => {
                    member::admin_address(target.admin.as_deref(), target.base.as_deref())
                        .and_then(|a| member::list(&a))
                }
                MemberCommand::Remove { who, target } => {
                    member::admin_address(target.admin.as_deref(), target.base.as_deref())
                        .and_then(|a| member::remove(&a, &who))
                }
            };
            exit(result)
        }
    }
}

fn exit(result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
