//! `tabula engine`: a line protocol on stdin/stdout, modelled on UCI/UGI,
//! for outside programs (match drivers, GUIs, test harnesses). The protocol
//! is documented in `docs/engine-protocol.md`.
//!
//! [`command`] parses lines, [`session`] is the state machine, [`search`]
//! runs one `go`; this module only moves lines and runs searches on a worker
//! thread, so that `isready`, `query` and `stop` are answered while it
//! thinks.

mod command;
mod search;
mod session;

use crate::CmdResult;
use session::{Reply, Session};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use tabula_ai::AnyAgent;

#[derive(clap::Args)]
pub struct Args {}

/// Where answers go: shared by the reader and the search thread, one whole
/// line at a time.
type Output = Arc<Mutex<dyn Write + Send>>;

pub fn run(_args: Args) -> CmdResult {
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    serve(std::io::stdin().lock(), out).map_err(|e| format!("engine: {e}"))
}

/// A search running on its own thread.
struct Worker {
    handle: JoinHandle<Option<Box<dyn AnyAgent>>>,
    cancel: Arc<AtomicBool>,
    /// Set before `bestmove` is written, so that a command sent after the
    /// driver read it always finds the search over.
    done: Arc<AtomicBool>,
}

/// Read commands until `quit` or the end of input; at the end of input a
/// running search finishes and answers first.
pub fn serve(mut input: impl BufRead, out: Output) -> std::io::Result<()> {
    let mut session = Session::new();
    let mut worker: Option<Worker> = None;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        if worker
            .as_ref()
            .is_some_and(|w| w.done.load(Ordering::Acquire))
        {
            finish(&mut session, &mut worker);
        }
        // Bytes that are not UTF-8 make a bad command, not a dead engine.
        let line = String::from_utf8_lossy(&buf);
        for reply in session.handle(&line) {
            match reply {
                Reply::Line(text) => write_lines(&out, &[text])?,
                Reply::Search(job) => worker = Some(spawn(job, out.clone())),
                Reply::Stop => {
                    if let Some(w) = &worker {
                        w.cancel.store(true, Ordering::Relaxed);
                    }
                }
                Reply::Quit => {
                    if let Some(w) = &worker {
                        w.cancel.store(true, Ordering::Relaxed);
                    }
                    finish(&mut session, &mut worker);
                    return Ok(());
                }
            }
        }
    }
    finish(&mut session, &mut worker);
    Ok(())
}

fn spawn(job: session::Job, out: Output) -> Worker {
    let cancel = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let (stop, finished) = (cancel.clone(), done.clone());
    let handle = std::thread::spawn(move || {
        let (agent, lines) = search::run(job, stop);
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        finished.store(true, Ordering::Release);
        // A closed stdout ends the engine at the next read anyway.
        for l in lines {
            let _ = writeln!(w, "{l}");
        }
        let _ = w.flush();
        agent
    });
    Worker {
        handle,
        cancel,
        done,
    }
}

/// Wait for the running search, if any, and give its agent back.
fn finish(session: &mut Session, worker: &mut Option<Worker>) {
    if let Some(w) = worker.take() {
        // `None`: the agent was lost to a panic; the next `go` builds one.
        session.search_done(w.handle.join().ok().flatten());
    }
}

fn write_lines(out: &Output, lines: &[String]) -> std::io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    for l in lines {
        writeln!(w, "{l}")?;
    }
    w.flush()
}
