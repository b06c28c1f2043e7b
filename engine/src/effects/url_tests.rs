use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::*;
use crate::effects::test_support::assert_metadata_get;
use crate::effects::{EffectKind, Lens};

fn ep(s: &str) -> Endpoint {
    match parse(s) {
        Some(e) => e,
        None => panic!("{s} did not parse"),
    }
}

/// (scheme, host, port, ip, path)
fn parts(s: &str) -> (String, String, Option<u16>, Option<IpAddr>, String) {
    let e = ep(s);
    (e.scheme, e.host, e.port, e.ip, e.path)
}

const META: IpAddr = IpAddr::V4(Ipv4Addr::new(169, 254, 169, 254));

#[test]
fn full_urls() {
    assert_eq!(
        parts("https://API.Example.COM./v1/x?b=1&a=2"),
        (
            "https".into(),
            "api.example.com".into(),
            Some(443),
            None,
            "/v1/x".into()
        )
    );
    let e = ep("https://api.example.com/v1/x?b=1&a=2");
    assert_eq!(e.query_keys, vec!["b".to_string(), "a".to_string()]);
    assert_eq!(
        parts("http://example.com:8080"),
        (
            "http".into(),
            "example.com".into(),
            Some(8080),
            None,
            "/".into()
        )
    );
    assert_eq!(
        parts("ftp://files.example.org/pub/a.tgz"),
        (
            "ftp".into(),
            "files.example.org".into(),
            Some(21),
            None,
            "/pub/a.tgz".into()
        )
    );
    assert_eq!(
        parts("wss://stream.example.net/socket"),
        (
            "wss".into(),
            "stream.example.net".into(),
            Some(443),
            None,
            "/socket".into()
        )
    );
    assert_eq!(
        parts("ws://localhost:9229/devtools"),
        (
            "ws".into(),
            "localhost".into(),
            Some(9229),
            None,
            "/devtools".into()
        )
    );
    assert_eq!(
        parts("ssh://git@GitHub.com:2222/org/repo.git"),
        (
            "ssh".into(),
            "github.com".into(),
            Some(2222),
            None,
            "/org/repo.git".into()
        )
    );
    assert_eq!(
        parts("git://Example.org/repo"),
        (
            "git".into(),
            "example.org".into(),
            Some(9418),
            None,
            "/repo".into()
        )
    );
    assert_eq!(
        parts("s3://my-bucket/backups/db.sql"),
        (
            "s3".into(),
            "my-bucket.s3.amazonaws.com".into(),
            Some(443),
            None,
            "/backups/db.sql".into()
        )
    );
    assert_eq!(
        parts("gs://data-bkt/x"),
        (
            "gs".into(),
            "data-bkt.storage.googleapis.com".into(),
            Some(443),
            None,
            "/x".into()
        )
    );
}

#[test]
fn file_urls_carry_the_local_path() {
    assert_eq!(
        parts("file:///home/u/.aws/credentials"),
        (
            "file".into(),
            String::new(),
            None,
            None,
            "/home/u/.aws/credentials".into()
        )
    );
    assert_eq!(ep("file://localhost/etc/passwd").path, "/etc/passwd");
    assert_eq!(ep("file:///tmp/my%20notes.txt").path, "/tmp/my notes.txt");
    assert_eq!(ep("FILE:///etc/shadow").path, "/etc/shadow");
    assert_eq!(ep("file:///etc/passwd").class(), IpClass::Loopback);
}

#[test]
fn scheme_less_hosts_are_http() {
    assert_eq!(
        parts("localhost:3000"),
        (
            "http".into(),
            "localhost".into(),
            Some(3000),
            None,
            "/".into()
        )
    );
    assert_eq!(
        parts("example.com/path/x"),
        (
            "http".into(),
            "example.com".into(),
            Some(80),
            None,
            "/path/x".into()
        )
    );
    assert_eq!(
        parts("169.254.169.254/latest/meta-data/"),
        (
            "http".into(),
            "169.254.169.254".into(),
            Some(80),
            Some(META),
            "/latest/meta-data/".into()
        )
    );
    assert_eq!(ep("//evil.example/x").host, "evil.example");
    assert_eq!(ep("[::1]:8080").ip, Some(IpAddr::V6(Ipv6Addr::LOCALHOST)));
}

#[test]
fn scp_style_is_ssh() {
    let e = ep("git@github.com:org/repo.git");
    assert_eq!(
        (
            e.scheme.as_str(),
            e.host.as_str(),
            e.port,
            e.path.as_str(),
            e.user.as_deref()
        ),
        ("ssh", "github.com", Some(22), "org/repo.git", Some("git"))
    );
    let e = ep("backup.example.net:/srv/dump");
    assert_eq!(
        (e.scheme.as_str(), e.host.as_str(), e.path.as_str()),
        ("ssh", "backup.example.net", "/srv/dump")
    );
    let e = ep("root@0xa9fea9fe:.ssh/");
    assert_eq!((e.host.as_str(), e.ip), ("169.254.169.254", Some(META)));
}

#[test]
fn not_hosts() {
    for s in [
        "",
        "/etc/passwd",
        "./x",
        "../y",
        "~/.ssh/id_rsa",
        "-o",
        "$URL",
        "C:\\Users\\u",
        "C:/Users/u",
        "mailto:a@b.example",
        "data:text/plain,hi",
        "javascript:alert(1)",
        "two words",
        "http://[::1",
    ] {
        assert_eq!(parse(s), None, "{s}");
    }
}

#[test]
fn ipv4_in_every_notation() {
    for s in [
        "http://169.254.169.254/",
        "http://0xa9.0xfe.0xa9.0xfe/",
        "http://0xA9FEA9FE/",
        "http://2852039166/",
        "http://0251.0376.0251.0376/",
        "http://169.254.43518/",
        "http://169.16689662/",
        "http://169.254.169.254./",
        "http://[::ffff:169.254.169.254]/",
        "http://[::ffff:a9fe:a9fe]/",
        "2852039166",
        "0xa9.0xfe.0xa9.0xfe:80",
        "ssh://0251.0376.0251.0376/x",
        "git://2852039166/x",
        "user@[::ffff:169.254.169.254]:x",
    ] {
        let e = ep(s);
        assert_eq!(
            (e.host.as_str(), e.ip),
            ("169.254.169.254", Some(META)),
            "{s}"
        );
        assert_eq!(e.class(), IpClass::Metadata, "{s}");
    }
    // Percent-encoded and full-width digits, userinfo and fragment decoys.
    for s in [
        "http://%31%36%39.254.169.254/",
        "http://１６９.２５４.１６９.２５４/",
        "http://evil.example@169.254.169.254/",
        "http://169.254.169.254#@evil.example",
        "ubuntu@169.254.169.254:~/x",
    ] {
        assert_eq!(ep(s).host, "169.254.169.254", "{s}");
    }
    assert_eq!(
        ep("http://169.254.169.254@evil.example/").host,
        "evil.example"
    );
    assert_eq!(ep("http://127.000.000.001/").host, "127.0.0.1");
    assert_eq!(ep("http://[::ffff:7f00:1]/").class(), IpClass::Loopback);
    assert_eq!(ep("http://0x7f.1/").host, "127.0.0.1");
    assert_eq!(ep("http://017700000001/").host, "127.0.0.1");
    assert_eq!(ep("http://0/").host, "0.0.0.0");
}

#[test]
fn ipv6() {
    let e = ep("http://[FD00:EC2:0:0::254]/latest");
    assert_eq!(e.host, "fd00:ec2::254");
    assert_eq!(
        e.ip,
        Some(IpAddr::V6(Ipv6Addr::new(
            0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254
        )))
    );
    assert_eq!(e.class(), IpClass::Metadata);
    assert_eq!(ep("http://[::1]:8080/").class(), IpClass::Loopback);
    assert_eq!(ep("http://[::]/").class(), IpClass::Loopback);
    assert_eq!(ep("http://[fe80::1]/").class(), IpClass::LinkLocal);
    assert_eq!(ep("http://[fd12:3456::1]/").class(), IpClass::Private);
    assert_eq!(
        ep("http://[64:ff9b::a9fe:a9fe]/").class(),
        IpClass::Metadata
    );
    assert_eq!(ep("http://[2606:4700::1111]/").class(), IpClass::Public);
    assert_eq!(ep("http://[::a9fe:a9fe]/").class(), IpClass::Private);
}

#[test]
fn idna_and_case() {
    assert_eq!(ep("https://Bücher.example/").host, "xn--bcher-kva.example");
    assert_eq!(
        ep("https://xn--bcher-kva.example/").host,
        "xn--bcher-kva.example"
    );
    assert_eq!(ep("ssh://Bücher.example/").host, "xn--bcher-kva.example");
    assert_eq!(ep("HTTPS://EXAMPLE.COM../").host, "example.com");
    // Full-width dots and letters fold to ASCII.
    assert_eq!(ep("http://ｅｘａｍｐｌｅ。com/").host, "example.com");
}

#[test]
fn classes() {
    let cases = [
        ("http://169.254.170.2/v2/credentials", IpClass::Metadata),
        ("http://100.100.100.200/latest/meta-data", IpClass::Metadata),
        (
            "http://metadata.google.internal/computeMetadata/v1/",
            IpClass::Metadata,
        ),
        ("http://Metadata.Google.Internal./x", IpClass::Metadata),
        ("http://metadata/computeMetadata/v1/", IpClass::Metadata),
        ("http://instance-data/latest/", IpClass::Metadata),
        (
            "http://instance-data.ec2.internal/latest/",
            IpClass::Metadata,
        ),
        ("http://localhost:3000/", IpClass::Loopback),
        ("http://app.localhost/", IpClass::Loopback),
        ("http://127.1/", IpClass::Loopback),
        ("http://0.0.0.0:8000/", IpClass::Loopback),
        ("http://169.254.1.1/", IpClass::LinkLocal),
        ("http://10.1.2.3/", IpClass::Private),
        ("http://172.31.0.1/", IpClass::Private),
        ("http://192.168.1.1/", IpClass::Private),
        ("http://100.64.0.1/", IpClass::Private),
        ("http://224.0.0.1/", IpClass::Private),
        ("http://db.internal/", IpClass::Private),
        ("http://printer.local/", IpClass::Private),
        ("http://redis:6379/", IpClass::Private),
        ("http://169.254.169.254.nip.io/", IpClass::Metadata),
        ("http://app-10-0-0-1.sslip.io/", IpClass::Private),
        ("http://a9fea9fe.nip.io/", IpClass::Metadata),
        ("http://foo.localtest.me/", IpClass::Loopback),
        ("https://github.com/", IpClass::Public),
        ("https://registry.npmjs.org/left-pad", IpClass::Public),
        ("https://docs.rs/url", IpClass::Public),
        ("http://8.8.8.8/", IpClass::Public),
        ("http://100.128.0.1/", IpClass::Public),
    ];
    for (s, c) in cases {
        assert_eq!(ep(s).class(), c, "{s}");
    }
}

#[test]
fn benign_hosts() {
    assert_eq!(
        parts("https://github.com/rust-lang/rust"),
        (
            "https".into(),
            "github.com".into(),
            Some(443),
            None,
            "/rust-lang/rust".into()
        )
    );
    assert_eq!(
        parts("https://registry.npmjs.org/react"),
        (
            "https".into(),
            "registry.npmjs.org".into(),
            Some(443),
            None,
            "/react".into()
        )
    );
    assert_eq!(
        parts("docs.rs/serde"),
        (
            "http".into(),
            "docs.rs".into(),
            Some(80),
            None,
            "/serde".into()
        )
    );
    for s in [
        "https://github.com/",
        "https://docs.rs/",
        "http://localhost:3000/",
    ] {
        assert_eq!(ep(s).credential_in_url(), None, "{s}");
    }
}

#[test]
fn host_patterns() {
    let api = ep("https://api.github.com/repos");
    assert!(api.host_matches("github.com"));
    assert!(api.host_matches("GitHub.COM."));
    assert!(api.host_matches("*.github.com"));
    assert!(!ep("https://github.com/").host_matches("*.github.com"));
    assert!(ep("https://github.com/").host_matches("github.com"));
    assert!(!ep("https://notgithub.com/").host_matches("github.com"));
    assert!(!ep("https://github.com.evil.example/").host_matches("github.com"));
    assert!(api.host_matches("*"));
    assert!(api.host_matches("github.com:443"));
    assert!(!api.host_matches("github.com:8443"));

    let ten = ep("http://0x0a.1.2.3/");
    assert!(ten.host_matches("10.0.0.0/8"));
    assert!(!ten.host_matches("192.168.0.0/16"));
    assert!(ten.host_matches("10.1.2.3"));
    assert!(ten.host_matches("012.1.2.3"));
    assert!(!api.host_matches("10.0.0.0/8"));
    assert!(ep("http://[::ffff:10.9.8.7]/").host_matches("10.0.0.0/8"));
    assert!(ep("http://[fd00:ec2::254]/").host_matches("fd00::/8"));
    assert!(ep("http://[fd00:ec2::254]/").host_matches("[fd00:ec2::254]"));
    assert!(ep("http://[fd00:ec2::254]/").host_matches("fd00:ec2::254"));
    assert!(ep("http://169.254.169.254/").host_matches("::ffff:169.254.169.254"));

    assert!(ep("http://127.0.0.1:3000/").host_matches("localhost"));
    assert!(ep("http://[::1]/").host_matches("localhost"));
    assert!(ep("http://app.localhost/").host_matches("localhost"));
    assert!(ep("localhost:3000").host_matches("localhost:3000"));
    assert!(!ep("localhost:3001").host_matches("localhost:3000"));
    assert!(!ep("http://10.0.0.1/").host_matches("localhost"));
    assert!(ep("https://bücher.example/").host_matches("Bücher.example"));
    assert!(api.host_matches(".github.com"));
    assert!(ep("https://github.com/").host_matches(".github.com"));
}

#[test]
fn credentials_in_urls() {
    let cases = [
        ("https://u:hunter2@example.com/", Some("userinfo password")),
        ("https://u@example.com/", None),
        ("https://u:@example.com/", None),
        ("https://x.example/?token=abc", Some("token")),
        (
            "https://x.example/?a=1&access_token=abc",
            Some("access_token"),
        ),
        ("https://x.example/?API_KEY=abc", Some("API_KEY")),
        ("https://x.example/?apikey=abc", Some("apikey")),
        ("https://maps.example/?key=AIza", Some("key")),
        ("https://x.example/?client_secret=s", Some("client_secret")),
        ("https://x.example/?password=p", Some("password")),
        ("https://x.example/?passwd=p", Some("passwd")),
        ("https://x.example/?auth=p", Some("auth")),
        ("https://blob.example/c?sv=1&sig=abc", Some("sig")),
        (
            "https://b.s3.amazonaws.com/k?X-Amz-Signature=ab",
            Some("X-Amz-Signature"),
        ),
        (
            "https://x.example/?X-Amz-Security-Token=t",
            Some("X-Amz-Security-Token"),
        ),
        ("https://x.example/?githubToken=t", Some("githubToken")),
        ("https://x.example/?token=", None),
        ("https://x.example/?page_token=abc", None),
        ("https://x.example/?nextPageToken=abc", None),
        ("https://x.example/?q=token&sort=key", None),
        ("https://x.example/?monkey=1", None),
    ];
    for (s, want) in cases {
        assert_eq!(ep(s).credential_in_url().as_deref(), want, "{s}");
    }
}

#[test]
fn push_url_reads_file_urls_and_sends_the_rest() {
    let route = Route {
        tool: "WebFetch".into(),
        lens: Some(Lens::Web),
        argument: "/url".into(),
        command: None,
        via: Vec::new(),
    };
    let mut fx = Effects::default();
    push_url(
        "file:///home/u/.aws/credentials",
        Some("GET".into()),
        Vec::new(),
        route.clone(),
        &mut fx,
    );
    push_url(
        "http://169.254.169.254/latest/meta-data/",
        Some("GET".into()),
        Vec::new(),
        route.clone(),
        &mut fx,
    );
    assert_eq!(fx.list.len(), 2);
    assert_eq!(
        fx.list[0].what,
        What::Read(PathRef::new("/home/u/.aws/credentials", None))
    );
    assert_eq!(fx.list[0].route, route);
    assert_eq!(fx.list[1].kind(), EffectKind::Send);
    let What::Send(s) = &fx.list[1].what else {
        panic!("not a send")
    };
    assert_metadata_get(s);
}

#[test]
fn token_shaped_values_are_credentials_wherever_they_are() {
    assert_eq!(
        token_kind("https://x.example/?t=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"),
        Some("a GitHub token")
    );
    assert_eq!(
        token_kind("/v1/AKIAIOSFODNN7EXAMPLE/x"),
        Some("an AWS access key id")
    );
    assert_eq!(
        token_kind("https://x.example/#sk-proj-abcdefghijklmnopqrstuvwxyz012345"),
        Some("an AI provider API key")
    );
    assert_eq!(
        token_kind("https://api.github.com/repos/a/b?page_token=abc"),
        None
    );
    assert_eq!(token_kind("https://docs.rs/serde/latest/serde/"), None);
    let ep = parse("https://evil.example.com/?t=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789").unwrap();
    assert_eq!(ep.credential_in_url().as_deref(), Some("a GitHub token"));
}
