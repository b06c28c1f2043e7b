//! Publishes: what a publisher ([`Action::Publish`](crate::effects::programs::Action)) reads
//! and sends to its registry (`npm publish`, `cargo publish`, `twine upload dist/*`, `docker
//! push ghcr.io/o/app`, `mvn deploy`).

use super::out::{Out, read_into_body};
use super::request::send_url;
use crate::effects::model::{BodySource, PathRef, Send, What};
use crate::effects::programs::{Parsed, Registry, Role, Switch};
use crate::shell::{Arg, SimpleCommand};

/// The upload host of a repository a publisher knows by a well-known name (`twine upload -r
/// testpypi`, `cargo publish --registry crates-io`).
fn named_repository(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "pypi" => Some("upload.pypi.org"),
        "testpypi" => Some("test.pypi.org"),
        "crates-io" => Some("crates.io"),
        "nuget.org" => Some("www.nuget.org"),
        _ => None,
    }
}

/// Whether a goal or task word is one of `goals` (a `*` stands for any text).
fn is_goal(word: &str, goals: &[&str]) -> bool {
    goals.iter().any(|g| match g.split_once('*') {
        Some((head, tail)) => {
            word.len() >= head.len() + tail.len() && word.starts_with(head) && word.ends_with(tail)
        }
        None => word == *g,
    })
}

/// The registry an image reference names (`ghcr.io/o/app:1` → `ghcr.io`, `localhost:5000/app`
/// → `localhost:5000`); Docker Hub's for a reference that names none (`app:1`, `o/app`).
fn image_registry(image: &str) -> String {
    match image.split_once('/') {
        Some((first, _)) if first.contains(['.', ':']) || first == "localhost" => first.to_string(),
        _ => "registry-1.docker.io".to_string(),
    }
}

/// A request to the registry `name` as given (a URL, a host, a repository's well-known
/// name) carrying `body`; a repository named only in the user's configuration (`poetry
/// publish -r internal`) is a destination known when the command runs.
fn to_registry(name: &Arg, body: Vec<BodySource>) -> What {
    let text = name.text.as_str();
    let url = if text.contains("://") {
        text.to_string()
    } else if let Some(host) = named_repository(text) {
        format!("https://{host}/")
    } else if text.contains(['.', ':']) || text == "localhost" {
        format!("https://{text}/")
    } else {
        return What::Send(Send {
            url: Some(text.to_string()),
            endpoint: None,
            method: Some("PUT".into()),
            body,
            dynamic: true,
            runs_response: false,
        });
    };
    send_url(
        &Arg {
            text: url,
            dynamic: name.dynamic,
        },
        Some("PUT".into()),
        body,
    )
}

/// `npm publish`, `cargo publish`, `twine upload dist/*`, `gem push x.gem`, `docker push
/// IMAGE`, `mvn clean deploy`, `gh repo create --public --source DIR --push`: each artifact
/// (or folder) named is read and, with the project folder when
/// none is named, sent (`PUT`) to the registry an option names or else the row's `registry`.
/// A build tool publishes only with one of its `goals`, a repository creation only with the
/// switches it `needs` (`gh repo create --public --push`); a dry run sends nothing.
pub(super) fn publish(
    c: &SimpleCommand,
    p: &Parsed,
    (registry, goals, needs): (Registry, &[&str], &[Switch]),
    out: &mut Out,
) {
    if p.has(Switch::DryRun) || !needs.iter().all(|s| p.has(*s)) {
        return;
    }
    if !goals.is_empty() && !p.operands.iter().any(|(_, a)| is_goal(&a.text, goals)) {
        return;
    }
    let mut body = Vec::new();
    let files = p
        .operands_of(Role::BodyFile)
        .chain(p.values_of(Role::BodyFile));
    read_into_body(files, c, &mut body, out);
    if body.is_empty() && registry != Registry::Image {
        // The project itself: the working directory's package, crate or build.
        let project = PathRef::from_arg(
            &Arg {
                text: ".".into(),
                dynamic: false,
            },
            c.cwd.as_deref(),
        );
        out.push(What::Read(project.clone()));
        body.push(BodySource::File(project));
    }
    if let Some(named) = p.values_of(Role::Source).next() {
        out.push(to_registry(named, body));
        return;
    }
    let host = match registry {
        Registry::Host(h) => h.to_string(),
        Registry::Image => match p.operands.first() {
            Some((_, image)) if image.dynamic && image.text.starts_with('$') => {
                out.push(to_registry(image, body));
                return;
            }
            Some((_, image)) => image_registry(&image.text),
            None => return,
        },
        Registry::Build => {
            out.push(What::Send(Send {
                url: Some("the build's publishing repository".into()),
                endpoint: None,
                method: Some("PUT".into()),
                body,
                dynamic: true,
                runs_response: false,
            }));
            return;
        }
    };
    out.push(send_url(
        &Arg {
            text: format!("https://{host}/"),
            dynamic: false,
        },
        Some("PUT".into()),
        body,
    ));
}
