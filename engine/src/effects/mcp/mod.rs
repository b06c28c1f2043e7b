//! The MCP lens: every argument of an MCP tool call, at any depth, classified.
//!
//! In: the tool name (`mcp__<server>__<tool>`, Cursor's `MCP:<tool>`) and its arguments
//! object. Out: effects whose route names the tool and the JSON pointer of the argument
//! (`/path`, `/options/target/0`).
//!
//! Every value is walked: objects, arrays, and strings that themselves hold a JSON object or
//! array (parsed and walked; the pointer goes on into them). A string is classified by its
//! key name first and its shape second:
//!
//! - a **command** (keys `command`, `cmd`, `script`, `commandLine`, …; `input` and `text` of a
//!   shell or process tool; an argv array under `command`, or `command` + `args`) goes
//!   through the shell lens;
//! - **SQL** (keys `sql`, `query`, `statement`, with a statement's shape) becomes a `run` of
//!   the program `sql` whose argv is the statement's verb (`select`, `drop`), the flag
//!   `--destructive` when it drops, truncates, or deletes or updates without `WHERE`, and the
//!   statement: policies test it like any program (`program = "sql"`, `subcommand = "drop"`,
//!   `flags_any = ["--destructive"]`);
//! - a **URL** (`scheme://…`) is a `send` (`POST` when the tool's verb posts, submits or
//!   uploads), a `file://` URL the path it names; a `host` key's value is a `send` to it;
//! - a **path** (a path key: `path`, `file_path`, `paths[]`, `destination`, `cwd`, …; or, under
//!   a key that says nothing, a value shaped like one: `/…`, `~/…`, `./…`, `../…`, `C:\…`) is
//!   read, written, deleted or moved as the tool's verb (`read_file`, `write_file`,
//!   `move_file`, `delete_*`, `create_directory`) and the key (`destination` is written)
//!   say; a write carries the `content` / `text` / `new_string` / `edits[].newText` beside it.
//!   Keys that clearly name something else (`…Id`, `name`, `query`, `pattern`, `branch`,
//!   `message`, `content`) are never paths, whatever their shape: a library ID
//!   `/vercel/next.js` is not a file.
//! - anything else is not an effect.
//!
//! Named lenses refine this for common servers: filesystem `search_files` reads the pattern
//! joined onto the path; git tools take `target` / `branch` as revisions and paths relative to
//! `repo_path`; GitHub, GitLab and Bitbucket tools name paths inside the remote repository
//! (not local files), and their writes (`create_or_update_file`, `push_files`,
//! `create_issue`, …) are a `send` to the service with a literal body; browser `evaluate`
//! runs page script (`unsure`); `*_upload` tools read their files and send them; `kill_*` /
//! `*_terminate` signal the process. A value too deep or too large to walk is `unsure`.
//!
//! The jobs, one file each: [`walk`] goes through the arguments and classifies each value
//! (the dispatcher); [`keys`] holds the string classes (what a key name or a value's shape
//! says); [`tool`] what the tool's name says (its verb, the kind of server); [`verbs`] what a
//! path or a process id does under the tool's verb; [`nested`] the code inside an argument
//! (command lines through the shell lens, SQL statements); [`services`] the named servers
//! (remote repositories, services text is posted to, uploads).

mod keys;
mod nested;
mod services;
mod tool;
mod verbs;
mod walk;

pub(crate) use walk::lens;

#[cfg(test)]
mod tests;
