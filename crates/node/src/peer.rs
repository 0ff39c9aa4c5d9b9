//! The peer transport: node-to-node traffic over TCP on the peer port.
//!
//! Each node dials every member it sends to and keeps one outbound connection per
//! address, fed by a bounded queue (a full queue drops messages: Raft retransmits, and a
//! slow peer must never block the Raft thread). Inbound connections are only read. Both
//! sides start with a hello naming the cluster; a peer from another cluster, or one whose
//! frames are malformed or fail their checksum, is disconnected and nothing it sent is
//! used. A new node (nil cluster) learns its cluster from the hellos it receives. When an
//! inbound connection closes, the Raft thread is told (a leader whose process died is
//! replaced at once instead of after an election timeout). Warnings about a peer that
//! keeps failing are logged once per interval, with a count.

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TryRecvError, TrySendError};
use parking_lot::{Mutex, RwLock};
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use tutti_replication::raft::{read_frame, Input, Member, PeerMsg, ReadError, Transport};
use tutti_replication::throttle::{repeated, Throttle};
use tutti_wsrep::{ClusterUuid, NodeId};

/// Frames queued per peer before new ones are dropped.
const QUEUE: usize = 8192;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);
/// An outbound connection idle this long carries a keepalive (a repeated hello): the peer
/// counts this node present (a quarter of the one-second presence window) even while its
/// Raft thread waits on a slow disk and sends nothing.
const KEEPALIVE: Duration = Duration::from_millis(250);

struct Shared {
    me: NodeId,
    addr: String,
    cluster: RwLock<ClusterUuid>,
    inbox: Sender<Input>,
    stop: AtomicBool,
    inbound: Mutex<Vec<TcpStream>>,
    throttle: Mutex<Throttle>,
}

/// The TCP transport of one node.
pub struct PeerTransport {
    shared: Arc<Shared>,
    links: Mutex<HashMap<String, Sender<Vec<u8>>>>,
    local: SocketAddr,
}

impl PeerTransport {
    /// Starts accepting peers on `listener`, introducing itself as `advertised` (the
    /// address the others dial); messages go to `inbox`.
    pub fn start(
        listener: TcpListener,
        advertised: SocketAddr,
        me: NodeId,
        inbox: Sender<Input>,
    ) -> std::io::Result<Arc<PeerTransport>> {
        let local = listener.local_addr()?;
        let shared = Arc::new(Shared {
            me,
            addr: advertised.to_string(),
            cluster: RwLock::new(ClusterUuid::nil()),
            inbox,
            stop: AtomicBool::new(false),
            inbound: Mutex::new(Vec::new()),
            throttle: Mutex::new(Throttle::new(Duration::from_secs(30))),
        });
        let s = shared.clone();
        std::thread::Builder::new()
            .name("peer-accept".into())
            .spawn(move || accept_loop(listener, s))?;
        Ok(Arc::new(PeerTransport {
            shared,
            links: Mutex::new(HashMap::new()),
            local,
        }))
    }

    /// Stops all connections.
    pub fn stop(&self) {
        self.shared.stop.store(true, Relaxed);
        self.links.lock().clear();
        for s in self.shared.inbound.lock().drain(..) {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&self.local, CONNECT_TIMEOUT);
    }
}

impl Transport for PeerTransport {
    fn send(&self, to: &Member, msg: PeerMsg) {
        if self.shared.stop.load(Relaxed) {
            return;
        }
        let mut links = self.links.lock();
        let tx = links.entry(to.peer_addr.clone()).or_insert_with(|| {
            let (tx, rx) = bounded(QUEUE);
            let s = self.shared.clone();
            let addr = to.peer_addr.clone();
            let _ = std::thread::Builder::new()
                .name(format!("peer-out {addr}"))
                .spawn(move || link_loop(addr, rx, s));
            tx
        });
        match tx.try_send(msg.frame()) {
            Ok(()) | Err(TrySendError::Full(_)) => {}
            Err(TrySendError::Disconnected(_)) => {
                links.remove(&to.peer_addr);
            }
        }
    }

    fn set_cluster(&self, uuid: ClusterUuid) {
        *self.shared.cluster.write() = uuid;
    }
}

/// Checks a peer's hello: same cluster, or one side new. Returns the peer's id.
fn check_hello(msg: PeerMsg, s: &Shared, peer: &str) -> Result<NodeId, String> {
    let PeerMsg::Hello {
        cluster,
        from,
        addr,
    } = msg
    else {
        return Err("first frame is not a hello".into());
    };
    let ours = *s.cluster.read();
    if !cluster.is_nil() && !ours.is_nil() && cluster != ours {
        return Err(format!(
            "peer {peer} belongs to cluster {cluster}, this node to {ours}"
        ));
    }
    if ours.is_nil() && !cluster.is_nil() {
        let _ = s.inbox.send(Input::ClusterUuid(cluster));
    }
    let _ = s.inbox.send(Input::PeerAddr(from, addr));
    Ok(from)
}

fn hello(s: &Shared) -> Vec<u8> {
    PeerMsg::Hello {
        cluster: *s.cluster.read(),
        from: s.me,
        addr: s.addr.clone(),
    }
    .frame()
}

fn accept_loop(listener: TcpListener, s: Arc<Shared>) {
    for conn in listener.incoming() {
        if s.stop.load(Relaxed) {
            return;
        }
        let Ok(conn) = conn else { continue };
        let s = s.clone();
        let _ = std::thread::Builder::new()
            .name("peer-in".into())
            .spawn(move || serve_inbound(conn, s));
    }
}

fn serve_inbound(mut conn: TcpStream, s: Arc<Shared>) {
    let peer = conn.peer_addr().map(|a| a.to_string()).unwrap_or_default();
    let _ = conn.set_nodelay(true);
    let _ = conn.set_read_timeout(Some(HELLO_TIMEOUT));
    let from = match read_frame(&mut conn)
        .map_err(|e| e.to_string())
        .and_then(|m| check_hello(m, &s, &peer))
    {
        Ok(id) => id,
        Err(e) => {
            let ip = peer.rsplit_once(':').map(|(h, _)| h).unwrap_or(&peer);
            if let Some(held) = s.throttle.lock().allow(&format!("refused {ip}")) {
                tracing::warn!("peer connection from {peer} refused: {e}{}", repeated(held));
            }
            return;
        }
    };
    if conn.write_all(&hello(&s)).is_err() {
        return;
    }
    let _ = conn.set_read_timeout(None);
    if let Ok(c) = conn.try_clone() {
        s.inbound.lock().push(c);
    }
    let mut reader = std::io::BufReader::with_capacity(256 << 10, conn);
    loop {
        match read_frame(&mut reader) {
            Ok(PeerMsg::Hello { .. }) => {
                if s.inbox.send(Input::PeerAlive(from)).is_err() {
                    return;
                }
            }
            Ok(msg) => {
                if s.inbox.send(Input::Peer(from, msg)).is_err() {
                    return;
                }
            }
            Err(ReadError::Io(_)) => break,
            Err(ReadError::Wire(e)) => {
                tracing::warn!("peer {peer} ({from:016x}) disconnected: {e}");
                break;
            }
        }
    }
    // The clone kept in `inbound` would hold the socket open: close it for both.
    let _ = reader.get_ref().shutdown(std::net::Shutdown::Both);
    s.inbound
        .lock()
        .retain(|c| c.peer_addr().ok().is_some_and(|a| a.to_string() != peer));
    if !s.stop.load(Relaxed) {
        let _ = s.inbox.send(Input::PeerLost(from));
    }
}

fn link_loop(addr: String, rx: Receiver<Vec<u8>>, s: Arc<Shared>) {
    let mut backoff = Duration::from_millis(50);
    while !s.stop.load(Relaxed) {
        match connect(&addr, &s) {
            Ok(conn) => {
                backoff = Duration::from_millis(50);
                if !pump(conn, &rx, &s) {
                    return;
                }
            }
            Err(e) => {
                tracing::debug!("peer {addr}: {e}");
                // Nobody to deliver to: drop what is queued (Raft will resend).
                loop {
                    match rx.try_recv() {
                        Ok(_) => continue,
                        Err(TryRecvError::Disconnected) => return,
                        Err(TryRecvError::Empty) => break,
                    }
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(1));
            }
        }
    }
}

fn connect(addr: &str, s: &Shared) -> Result<TcpStream, String> {
    let sock: SocketAddr = addr.parse().map_err(|e| format!("bad address: {e}"))?;
    let mut conn = TcpStream::connect_timeout(&sock, CONNECT_TIMEOUT).map_err(|e| e.to_string())?;
    let _ = conn.set_nodelay(true);
    conn.write_all(&hello(s)).map_err(|e| e.to_string())?;
    let _ = conn.set_read_timeout(Some(HELLO_TIMEOUT));
    let reply = read_frame(&mut conn).map_err(|e| e.to_string())?;
    check_hello(reply, s, addr)?;
    Ok(conn)
}

/// Writes queued frames, and a keepalive when there are none for a while, until the
/// connection fails (true) or the transport stops (false).
fn pump(conn: TcpStream, rx: &Receiver<Vec<u8>>, s: &Shared) -> bool {
    let mut w = BufWriter::with_capacity(256 << 10, conn);
    loop {
        let frame = match rx.recv_timeout(KEEPALIVE) {
            Ok(f) => f,
            Err(RecvTimeoutError::Timeout) => {
                if s.stop.load(Relaxed) {
                    return false;
                }
                hello(s)
            }
            Err(RecvTimeoutError::Disconnected) => return false,
        };
        if w.write_all(&frame).is_err() {
            return true;
        }
        while let Ok(f) = rx.try_recv() {
            if w.write_all(&f).is_err() {
                return true;
            }
        }
        if w.flush().is_err() {
            return true;
        }
    }
}
