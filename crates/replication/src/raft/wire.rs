//! What nodes say to each other on the peer port, and how it is framed.
//!
//! Every frame is `magic "TT" | version u8 | kind u8 | len u32 | crc32 u32 | payload`, with
//! the CRC over the payload. A frame with a wrong magic, an unknown version or kind, a
//! length over [`MAX_FRAME`] or a bad checksum is an error: the connection it came on is
//! closed and nothing in it is trusted. Payloads use the checked codec of `tutti-wsrep`,
//! so a well-framed but malformed payload is an error too, never a panic.
//!
//! The first frame on every connection, in both directions, is a [`PeerMsg::Hello`]
//! naming the cluster and the node; a node refuses a hello for another cluster.
//!
//! Raft messages, gossip, join requests and removal notices carry the sender's bootstrap
//! epoch (how many times an operator's `pc.bootstrap` restarted the configuration in its
//! history), so that nodes of a configuration an operator replaced never mix their Raft
//! state with the new one (see [`bootstrap`](super::bootstrap)).

use protobuf::Message as _;
use raft::eraftpb::Message as RaftMessage;
use tutti_wsrep::codec::{Decoder, Encoder};
use tutti_wsrep::{ClusterUuid, NodeId, Seqno, WsrepError};

/// Version of the peer protocol spoken by this build.
pub const PROTOCOL_VERSION: u8 = 3;
/// Largest frame payload accepted (a Raft append carries at most a few MiB of entries,
/// but one entry may be a large write-set).
pub const MAX_FRAME: usize = 512 << 20;
const MAGIC: [u8; 2] = *b"TT";
/// Bytes of the frame header.
pub const HEADER: usize = 12;

/// A member of the cluster as every node knows it (kept in the membership changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its node id (also its Raft id).
    pub id: NodeId,
    /// Its name (`wsrep_node_name`).
    pub name: String,
    /// Where its peer port listens.
    pub peer_addr: String,
    /// Where its MySQL clients connect (`wsrep_incoming_addresses`).
    pub mysql_addr: String,
}

impl Member {
    /// The binary form (also the context of a membership change).
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        self.encode_into(&mut e);
        e.finish()
    }
    fn encode_into(&self, e: &mut Encoder) {
        e.u64(self.id)
            .str(&self.name)
            .str(&self.peer_addr)
            .str(&self.mysql_addr);
    }
    /// Reads the binary form.
    pub fn decode(b: &[u8]) -> Result<Member, WsrepError> {
        let mut d = Decoder::new(b, "member");
        let m = Member::decode_from(&mut d)?;
        d.finish()?;
        Ok(m)
    }
    fn decode_from(d: &mut Decoder<'_>) -> Result<Member, WsrepError> {
        Ok(Member {
            id: d.u64()?,
            name: d.str()?,
            peer_addr: d.str()?,
            mysql_addr: d.str()?,
        })
    }
}

/// What a node tells every other member a few times a second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gossip {
    /// Its last applied seqno.
    pub applied: Seqno,
    /// Its `wsrep_local_state`.
    pub state: u32,
    /// Committed entries waiting for its applier.
    pub recv_queue: u64,
    /// It is in a primary component.
    pub primary: bool,
    /// Its bootstrap epoch.
    pub epoch: u64,
}

/// A node asking to join (or rejoin) the cluster, with where its history ends, so the
/// leader can check that history is the cluster's before letting it catch up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinRequest {
    /// The node.
    pub member: Member,
    /// The last seqno its database applied (0: empty).
    pub applied: Seqno,
    /// The Raft term of that entry in its log (0: unknown).
    pub applied_term: u64,
    /// Its bootstrap epoch.
    pub epoch: u64,
}

/// One message between nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum PeerMsg {
    /// First frame of a connection: who is speaking, for which cluster (nil: a joiner).
    Hello {
        /// The cluster's uuid (nil when the speaker is a new node asking to join).
        cluster: ClusterUuid,
        /// The speaker.
        from: NodeId,
        /// Where the speaker's peer port listens.
        addr: String,
    },
    /// A Raft message, with the sender's bootstrap epoch.
    Raft {
        /// The sender's bootstrap epoch.
        epoch: u64,
        /// The message.
        msg: Box<RaftMessage>,
    },
    /// A write-set for the leader to certify and order (an encoded `WriteSet`).
    Submit(Vec<u8>),
    /// A new (or returning) node asks to be added as a learner.
    Join(JoinRequest),
    /// The leader refuses a join, saying why (a live member has the same name, or the
    /// node's history is not the cluster's).
    JoinRefused(String),
    /// A member leaving cleanly asks to be removed.
    Leave(NodeId),
    /// The leader tells a node that it is not a member (its removal is committed, or it
    /// was removed while it was away); or a node of a newer bootstrap epoch tells one of
    /// an older epoch that its configuration was replaced.
    Removed {
        /// The sender's bootstrap epoch.
        epoch: u64,
    },
    /// Periodic status of the sender.
    Gossip(Gossip),
    /// The leader no longer has the entries the recipient needs (from this seqno on it has
    /// them): the recipient needs a state snapshot transfer.
    NeedsSst(Seqno),
}

impl PeerMsg {
    /// The sender's bootstrap epoch, for the messages that carry it.
    pub fn epoch(&self) -> Option<u64> {
        match self {
            PeerMsg::Raft { epoch, .. } | PeerMsg::Removed { epoch } => Some(*epoch),
            PeerMsg::Gossip(g) => Some(g.epoch),
            PeerMsg::Join(j) => Some(j.epoch),
            _ => None,
        }
    }

    fn kind(&self) -> u8 {
        match self {
            PeerMsg::Hello { .. } => 1,
            PeerMsg::Raft { .. } => 2,
            PeerMsg::Submit(_) => 3,
            PeerMsg::Join(_) => 4,
            PeerMsg::Leave(_) => 5,
            PeerMsg::Removed { .. } => 6,
            PeerMsg::Gossip(_) => 7,
            PeerMsg::NeedsSst(_) => 8,
            PeerMsg::JoinRefused(_) => 9,
        }
    }

    /// The whole frame for this message.
    pub fn frame(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        match self {
            PeerMsg::Hello {
                cluster,
                from,
                addr,
            } => {
                e.bytes(cluster.as_bytes()).u64(*from).str(addr);
            }
            PeerMsg::Raft { epoch, msg } => {
                e.u64(*epoch)
                    .bytes(&msg.write_to_bytes().unwrap_or_default());
            }
            PeerMsg::Submit(ws) => {
                e.bytes(ws);
            }
            PeerMsg::Join(j) => {
                j.member.encode_into(&mut e);
                e.u64(j.applied).u64(j.applied_term).u64(j.epoch);
            }
            PeerMsg::JoinRefused(why) => {
                e.str(why);
            }
            PeerMsg::Leave(id) => {
                e.u64(*id);
            }
            PeerMsg::Removed { epoch } => {
                e.u64(*epoch);
            }
            PeerMsg::Gossip(g) => {
                e.u64(g.applied)
                    .u32(g.state)
                    .u64(g.recv_queue)
                    .u8(g.primary as u8)
                    .u64(g.epoch);
            }
            PeerMsg::NeedsSst(first) => {
                e.u64(*first);
            }
        }
        let payload = e.finish();
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(&MAGIC);
        out.push(PROTOCOL_VERSION);
        out.push(self.kind());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Checks a frame header; returns (kind, payload length, crc).
    pub fn parse_header(h: &[u8; HEADER]) -> Result<(u8, usize, u32), WireError> {
        if h[0..2] != MAGIC {
            return Err(WireError("not a tutti peer frame (bad magic)".into()));
        }
        if h[2] != PROTOCOL_VERSION {
            return Err(WireError(format!(
                "peer protocol version {} (this node speaks {PROTOCOL_VERSION})",
                h[2]
            )));
        }
        let len = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
        if len > MAX_FRAME {
            return Err(WireError(format!("frame of {len} bytes is too large")));
        }
        let crc = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
        Ok((h[3], len, crc))
    }

    /// Decodes a frame body after [`PeerMsg::parse_header`].
    pub fn decode(kind: u8, crc: u32, payload: &[u8]) -> Result<PeerMsg, WireError> {
        if crc32fast::hash(payload) != crc {
            return Err(WireError("frame checksum mismatch".into()));
        }
        let mut d = Decoder::new(payload, "peer message");
        let msg = match kind {
            1 => {
                let b = d.bytes()?;
                let cluster: [u8; 16] = b
                    .try_into()
                    .map_err(|_| WireError("bad cluster uuid".into()))?;
                PeerMsg::Hello {
                    cluster: ClusterUuid::from_bytes(cluster),
                    from: d.u64()?,
                    addr: d.str()?,
                }
            }
            2 => {
                let epoch = d.u64()?;
                let m = RaftMessage::parse_from_bytes(d.bytes()?)
                    .map_err(|e| WireError(format!("bad raft message: {e}")))?;
                PeerMsg::Raft {
                    epoch,
                    msg: Box::new(m),
                }
            }
            3 => PeerMsg::Submit(d.bytes()?.to_vec()),
            4 => PeerMsg::Join(JoinRequest {
                member: Member::decode_from(&mut d)?,
                applied: d.u64()?,
                applied_term: d.u64()?,
                epoch: d.u64()?,
            }),
            5 => PeerMsg::Leave(d.u64()?),
            6 => PeerMsg::Removed { epoch: d.u64()? },
            7 => PeerMsg::Gossip(Gossip {
                applied: d.u64()?,
                state: d.u32()?,
                recv_queue: d.u64()?,
                primary: d.u8()? == 1,
                epoch: d.u64()?,
            }),
            8 => PeerMsg::NeedsSst(d.u64()?),
            9 => PeerMsg::JoinRefused(d.str()?),
            k => return Err(WireError(format!("unknown frame kind {k}"))),
        };
        d.finish()?;
        Ok(msg)
    }
}

/// A frame that cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("peer protocol error: {0}")]
pub struct WireError(pub String);

impl From<WsrepError> for WireError {
    fn from(e: WsrepError) -> Self {
        WireError(e.to_string())
    }
}

/// Reads one frame from a blocking reader.
pub fn read_frame(r: &mut impl std::io::Read) -> Result<PeerMsg, ReadError> {
    let mut h = [0u8; HEADER];
    r.read_exact(&mut h)?;
    let (kind, len, crc) = PeerMsg::parse_header(&h)?;
    let mut payload = vec![0u8; len];
    r.read_exact(&mut payload)?;
    Ok(PeerMsg::decode(kind, crc, &payload)?)
}

/// Why reading a frame failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The connection failed or closed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The peer sent something that is not a valid frame.
    #[error("{0}")]
    Wire(#[from] WireError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(m: PeerMsg) {
        let f = m.frame();
        let got = read_frame(&mut &f[..]).unwrap();
        assert_eq!(got, m);
    }

    #[test]
    fn every_message_round_trips() {
        let member = Member {
            id: 7,
            name: "n1".into(),
            peer_addr: "127.0.0.1:1".into(),
            mysql_addr: "127.0.0.1:2".into(),
        };
        let rm = RaftMessage {
            from: 1,
            to: 2,
            term: 3,
            ..Default::default()
        };
        for m in [
            PeerMsg::Hello {
                cluster: ClusterUuid::new_random(),
                from: 9,
                addr: "127.0.0.1:3".into(),
            },
            PeerMsg::Raft {
                epoch: 1,
                msg: Box::new(rm),
            },
            PeerMsg::Submit(vec![1, 2, 3]),
            PeerMsg::Join(JoinRequest {
                member: member.clone(),
                applied: 10,
                applied_term: 2,
                epoch: 1,
            }),
            PeerMsg::JoinRefused("history diverged".into()),
            PeerMsg::Leave(5),
            PeerMsg::Removed { epoch: 2 },
            PeerMsg::NeedsSst(12),
            PeerMsg::Gossip(Gossip {
                applied: 1,
                state: 4,
                recv_queue: 2,
                primary: true,
                epoch: 3,
            }),
        ] {
            round_trip(m);
        }
        assert_eq!(Member::decode(&member.encode()).unwrap(), member);
    }

    #[test]
    fn damaged_frames_are_rejected() {
        let f = PeerMsg::Leave(5).frame();
        let mut bad = f.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(matches!(read_frame(&mut &bad[..]), Err(ReadError::Wire(_))));
        let mut bad = f.clone();
        bad[0] = b'X';
        assert!(matches!(read_frame(&mut &bad[..]), Err(ReadError::Wire(_))));
        let mut bad = f.clone();
        bad[2] = 99;
        assert!(matches!(read_frame(&mut &bad[..]), Err(ReadError::Wire(_))));
        let mut bad = f.clone();
        bad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read_frame(&mut &bad[..]), Err(ReadError::Wire(_))));
        assert!(matches!(read_frame(&mut &f[..5]), Err(ReadError::Io(_))));
        // Random bytes never panic.
        let mut x = 12345u64;
        for _ in 0..2000 {
            let mut buf = Vec::new();
            for _ in 0..40 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                buf.push(x as u8);
            }
            buf[0..3].copy_from_slice(&[b'T', b'T', PROTOCOL_VERSION]);
            let _ = read_frame(&mut &buf[..]);
        }
    }
}
