//! A minimal HTTP/1.0 client for the admin endpoints (`tutti cluster`, `tutti member`, the
//! history-checking suite): no dependency, one request per connection, bounded in time.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Sends `METHOD path` to `addr`: (status code, body), or None if nobody answers properly.
pub fn request(addr: &str, method: &str, path: &str) -> Option<(u16, String)> {
    request_within(addr, method, path, Duration::from_secs(15))
}

/// [`request`], waiting at most `timeout` for the connection and for the answer.
pub fn request_within(
    addr: &str,
    method: &str,
    path: &str,
    timeout: Duration,
) -> Option<(u16, String)> {
    let sock = addr.parse().ok()?;
    let mut s = TcpStream::connect_timeout(&sock, timeout.min(Duration::from_secs(2))).ok()?;
    s.set_read_timeout(Some(timeout)).ok()?;
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .ok()?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).ok()?;
    let code = resp.split_whitespace().nth(1)?.parse().ok()?;
    let (_, body) = resp.split_once("\r\n\r\n")?;
    Some((code, body.to_string()))
}

/// `GET path`.
pub fn get(addr: &str, path: &str) -> Option<(u16, String)> {
    request(addr, "GET", path)
}
