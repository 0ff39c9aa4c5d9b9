//! The fault-injecting network: one TCP proxy in front of each node's peer port, on
//! 127.0.0.1. Nodes advertise their proxy's address (`--peer-advertise`), so every
//! node-to-node byte passes through a proxy. A peer connection opens with a hello that
//! names the dialing node's advertised address: that is how the proxy knows which pair of
//! nodes a connection joins. Faults are per pair: a cut pair's connections are closed and
//! new ones refused (both directions); a delay holds every chunk of bytes for a random
//! time in a range before forwarding it (order is kept). Client traffic does not pass
//! through: clients, like Jepsen's control node, always reach every node.

use crate::JepsenError;
use parking_lot::RwLock;
use rand::Rng;
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_replication::raft::{read_frame, PeerMsg};

/// How often a forwarding thread looks at the fault settings while idle.
const POLL: Duration = Duration::from_millis(100);

#[derive(Default)]
struct Faults {
    cut: HashSet<(usize, usize)>,
    delay: Option<(u64, u64)>,
}

/// The network between the nodes.
pub struct Net {
    faults: RwLock<Faults>,
    /// Advertised (proxy) address → node.
    names: HashMap<String, usize>,
    stop: AtomicBool,
}

fn pair(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

impl Net {
    /// A healthy network whose nodes advertise `addrs` (index = node).
    pub fn new(addrs: &[SocketAddr]) -> Arc<Net> {
        Arc::new(Net {
            faults: RwLock::default(),
            names: addrs
                .iter()
                .enumerate()
                .map(|(i, a)| (a.to_string(), i))
                .collect(),
            stop: AtomicBool::new(false),
        })
    }

    /// Cuts every pair of nodes in different groups; nodes in no group keep their links.
    pub fn partition(&self, groups: &[Vec<usize>]) {
        let mut f = self.faults.write();
        f.cut.clear();
        for (gi, g) in groups.iter().enumerate() {
            for h in &groups[gi + 1..] {
                for &a in g {
                    for &b in h {
                        f.cut.insert(pair(a, b));
                    }
                }
            }
        }
    }

    /// Cuts exactly these pairs.
    pub fn cut_pairs(&self, pairs: &[(usize, usize)]) {
        let mut f = self.faults.write();
        f.cut = pairs.iter().map(|&(a, b)| pair(a, b)).collect();
    }

    /// Delays every chunk by a random time in `min..=max` ms (`None`: no delay).
    pub fn delay(&self, range: Option<(u64, u64)>) {
        self.faults.write().delay = range;
    }

    /// Removes every fault.
    pub fn heal(&self) {
        *self.faults.write() = Faults::default();
    }

    fn is_cut(&self, a: Option<usize>, b: usize) -> bool {
        a.is_some_and(|a| self.faults.read().cut.contains(&pair(a, b)))
    }

    fn hold(&self) -> Duration {
        match self.faults.read().delay {
            Some((lo, hi)) => Duration::from_millis(rand::rng().random_range(lo..=hi)),
            None => Duration::ZERO,
        }
    }

    /// Stops every proxy.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts node `me`'s proxy: accepts on `listener`, forwards to `target`.
pub fn start(
    net: Arc<Net>,
    me: usize,
    listener: TcpListener,
    target: SocketAddr,
) -> Result<(), JepsenError> {
    listener.set_nonblocking(true)?;
    std::thread::Builder::new()
        .name(format!("proxy n{}", me + 1))
        .spawn(move || {
            while !net.stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let net = net.clone();
                        let _ = std::thread::Builder::new()
                            .name("proxy conn".into())
                            .spawn(move || connection(net, me, conn, target));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        })?;
    Ok(())
}

/// One proxied connection: learn who dials from the hello, then forward both ways.
fn connection(net: Arc<Net>, me: usize, mut inbound: TcpStream, target: SocketAddr) {
    let _ = inbound.set_nonblocking(false);
    let _ = inbound.set_read_timeout(Some(Duration::from_secs(5)));
    let Ok(hello) = read_frame(&mut inbound) else {
        return;
    };
    let from = match &hello {
        PeerMsg::Hello { addr, .. } => net.names.get(addr).copied(),
        _ => None,
    };
    if net.is_cut(from, me) {
        return;
    }
    let Ok(mut outbound) = TcpStream::connect_timeout(&target, Duration::from_secs(1)) else {
        return;
    };
    if outbound.write_all(&hello.frame()).is_err() {
        return;
    }
    let _ = inbound.set_nodelay(true);
    let _ = outbound.set_nodelay(true);
    let (Ok(in2), Ok(out2)) = (inbound.try_clone(), outbound.try_clone()) else {
        return;
    };
    let n2 = net.clone();
    let _ = std::thread::Builder::new()
        .name("proxy back".into())
        .spawn(move || forward(n2, from, me, out2, in2));
    forward(net, from, me, inbound, outbound);
}

/// Copies `src` to `dst` until either closes or the pair is cut, holding each chunk for
/// the current delay (on a second thread, so reading never waits for the delay).
fn forward(net: Arc<Net>, from: Option<usize>, me: usize, mut src: TcpStream, dst: TcpStream) {
    let _ = src.set_read_timeout(Some(POLL));
    let (tx, rx) = crossbeam_channel::unbounded::<(Instant, Vec<u8>)>();
    let mut writer = match dst.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    let closer = dst.try_clone();
    let write_thread = std::thread::Builder::new()
        .name("proxy write".into())
        .spawn(move || {
            for (due, bytes) in rx {
                let now = Instant::now();
                if due > now {
                    std::thread::sleep(due - now);
                }
                if writer.write_all(&bytes).is_err() {
                    break;
                }
            }
            let _ = writer.shutdown(Shutdown::Both);
        });
    let mut buf = vec![0u8; 64 << 10];
    let mut last_due = Instant::now();
    loop {
        if net.stop.load(Ordering::Relaxed) || net.is_cut(from, me) {
            break;
        }
        match src.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                last_due = last_due.max(Instant::now() + net.hold());
                if tx.send((last_due, buf[..n].to_vec())).is_err() {
                    break;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    drop(tx);
    let _ = src.shutdown(Shutdown::Both);
    if net.is_cut(from, me) || net.stop.load(Ordering::Relaxed) {
        // A cut drops what is in flight.
        if let Ok(c) = closer {
            let _ = c.shutdown(Shutdown::Both);
        }
    }
    if let Ok(t) = write_thread {
        let _ = t.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_cut_pairs_across_groups_only() {
        let addrs: Vec<SocketAddr> = (0..5)
            .map(|i| format!("127.0.0.1:{}", 7000 + i).parse().unwrap())
            .collect();
        let net = Net::new(&addrs);
        net.partition(&[vec![0, 1], vec![2, 3, 4]]);
        assert!(net.is_cut(Some(0), 2) && net.is_cut(Some(4), 1));
        assert!(!net.is_cut(Some(0), 1) && !net.is_cut(Some(2), 4));
        assert!(!net.is_cut(None, 1), "unknown senders are never cut");
        net.heal();
        assert!(!net.is_cut(Some(0), 2));
    }
}
