//! Named servers of the MCP lens: what a whole call adds once its arguments are walked.
//!
//! In: the walk's state after the arguments (the tool's name, the files an upload read, the
//! effects found so far) and the arguments object. Out: the request an upload sends (its files
//! as the body), a remote repository service's write (GitHub, GitLab, Bitbucket) as a `send`
//! with its method, and the text a chat, issue or paste tool posts as a `send` with a literal
//! body to the service's host.

use serde_json::Value;

use super::tool::split_tool;
use super::walk::Walk;
use crate::effects::model::{BodySource, Effects, Send, What};

impl Walk<'_> {
    /// What the whole call adds: the request an upload sends, a remote repository's write.
    pub(super) fn finish(&mut self, input: &Value, start: usize, fx: &mut Effects) {
        if !self.uploads.is_empty() {
            let body: Vec<BodySource> = self.uploads.drain(..).map(BodySource::File).collect();
            // The files go with the request the call names, if it names one.
            let mut attached = false;
            for e in fx.list.iter_mut().skip(start) {
                if let What::Send(s) = &mut e.what
                    && e.route.command.is_none()
                {
                    s.body.extend(body.iter().cloned());
                    s.method = Some("POST".to_string());
                    attached = true;
                }
            }
            if !attached {
                let arg = self.upload_arg.take().unwrap_or_default();
                fx.push(
                    What::Send(Send {
                        url: None,
                        endpoint: None,
                        method: Some("POST".to_string()),
                        body,
                        dynamic: true,
                        runs_response: false,
                    }),
                    self.route(&arg),
                );
            }
        }
        if let Some(host) = self.by_name.remote {
            self.remote_write(host, input, fx);
        } else {
            self.posted_text(input, start, fx);
        }
    }

    /// A tool that posts text to a service (a chat message, an issue or ticket, a comment,
    /// a page, a paste: `slack_post_message`, `send_message`, `create_issue`,
    /// `create_paste`): a `send` to the service with the text as a literal body, so a
    /// secret in the text is judged as one leaving. Only when the walk found no request of its
    /// own and the tool is no file tool (a local `write_file` writes, it does not post).
    fn posted_text(&mut self, input: &Value, start: usize, fx: &mut Effects) {
        if self.by_name.file_tool
            || fx
                .list
                .iter()
                .skip(start)
                .any(|e| matches!(e.what, What::Send(_)))
        {
            return;
        }
        let has = |ws: &[&str]| self.by_name.words.iter().any(|x| ws.contains(&x.as_str()));
        let (server, _) = split_tool(self.tool);
        let server = server.to_ascii_lowercase();
        let host = POST_SERVICES
            .iter()
            .find(|(name, _)| server.contains(name))
            .map(|(_, h)| *h);
        if !has(POST_VERBS) || !(has(POSTED_THINGS) || host.is_some() && has(SERVICE_THINGS)) {
            return;
        }
        let Some(key) = POSTED_TEXT_KEYS
            .iter()
            .find(|k| input.get(**k).is_some_and(|v| !v.is_null()))
        else {
            return;
        };
        fx.push(
            What::Send(Send {
                url: None,
                endpoint: host.and_then(|h| crate::effects::url::parse(&format!("https://{h}/"))),
                method: Some("POST".to_string()),
                body: vec![BodySource::Literal],
                dynamic: host.is_none(),
                runs_response: false,
            }),
            self.route(&format!("/{key}")),
        );
    }

    /// A write to a remote repository service (`create_or_update_file`, `push_files`,
    /// `create_issue`, …): a `send` to the service, with a literal body when the call
    /// carries content.
    fn remote_write(&mut self, host: &str, input: &Value, fx: &mut Effects) {
        let writes = self.by_name.words.iter().any(|w| {
            matches!(
                w.as_str(),
                "create"
                    | "update"
                    | "push"
                    | "add"
                    | "delete"
                    | "remove"
                    | "merge"
                    | "fork"
                    | "edit"
                    | "upload"
                    | "comment"
                    | "submit"
                    | "close"
                    | "reopen"
                    | "assign"
                    | "publish"
                    | "release"
                    | "write"
                    | "put"
                    | "commit"
                    | "approve"
                    | "request"
                    | "rerun"
                    | "cancel"
                    | "dispatch"
                    | "trigger"
                    | "set"
            )
        });
        if !writes {
            return;
        }
        let has = |w: &str| self.by_name.words.iter().any(|x| x == w);
        let method = if has("delete") || has("remove") {
            "DELETE"
        } else if has("update") && has("file") || has("put") {
            "PUT"
        } else if has("update") || has("edit") {
            "PATCH"
        } else {
            "POST"
        };
        let s = |k: &str| input.get(k).and_then(Value::as_str);
        let mut url = format!("https://{host}/");
        if let (Some(o), Some(r)) = (s("owner"), s("repo")) {
            url = format!("https://{host}/repos/{o}/{r}");
            if let Some(p) = s("path")
                && has("file")
            {
                url = format!("{url}/contents/{}", p.trim_start_matches('/'));
            }
        } else if let Some(id) = s("project_id") {
            url = format!("https://{host}/api/v4/projects/{id}");
        }
        let content_arg = [
            "content",
            "files",
            "body",
            "message",
            "description",
            "title",
        ]
        .into_iter()
        .find(|k| input.get(k).is_some_and(|v| !v.is_null()));
        let body = content_arg
            .map(|_| vec![BodySource::Literal])
            .unwrap_or_default();
        fx.push(
            What::Send(Send {
                url: None,
                endpoint: crate::effects::url::parse(&url),
                method: Some(method.to_string()),
                body,
                dynamic: false,
                runs_response: false,
            }),
            self.route(&content_arg.map(|k| format!("/{k}")).unwrap_or_default()),
        );
    }
}

/// Verbs of a tool name that posts text (`slack_post_message`, `create_issue`).
const POST_VERBS: &[&str] = &[
    "post", "send", "create", "add", "reply", "comment", "publish", "share", "submit", "write",
    "update", "edit", "append", "new",
];

/// What a posted text becomes (`message`, `issue`, `comment`, `paste`), on any server.
const POSTED_THINGS: &[&str] = &[
    "message",
    "messages",
    "msg",
    "chat",
    "dm",
    "reply",
    "thread",
    "comment",
    "comments",
    "issue",
    "issues",
    "ticket",
    "gist",
    "paste",
    "snippet",
    "post",
    "tweet",
    "email",
    "mail",
    "discussion",
    "review",
    "pr",
    "pull",
    "incident",
];

/// What a posted text becomes on a known service ([`POST_SERVICES`]: a Notion page, a Trello
/// card, an Asana task); on another server these may be local (a notes or to-do server).
const SERVICE_THINGS: &[&str] = &[
    "page", "doc", "document", "block", "blocks", "card", "task", "story", "bug", "note", "status",
];

/// Arguments that carry the text a tool posts.
const POSTED_TEXT_KEYS: &[&str] = &[
    "text",
    "message",
    "content",
    "body",
    "description",
    "comment",
    "markdown",
    "blocks",
    "note",
    "summary",
    "html",
    "contents",
    "files",
    "title",
];

/// Services that take posted text, by a word of the MCP server's name, and their API host.
const POST_SERVICES: &[(&str, &str)] = &[
    ("slack", "slack.com"),
    ("discord", "discord.com"),
    ("telegram", "api.telegram.org"),
    ("teams", "graph.microsoft.com"),
    ("linear", "api.linear.app"),
    ("notion", "api.notion.com"),
    ("jira", "atlassian.net"),
    ("confluence", "atlassian.net"),
    ("atlassian", "atlassian.net"),
    ("asana", "app.asana.com"),
    ("trello", "api.trello.com"),
    ("pastebin", "pastebin.com"),
    ("gmail", "gmail.googleapis.com"),
    ("twitter", "api.twitter.com"),
    ("sentry", "sentry.io"),
];
