//! Links made on the line: later commands act on what the link points at.

use super::table;

#[test]
fn effects_go_through_links_the_line_made() {
    table(&[
        // A folder link: deleting below it deletes below the target.
        (
            "ln -s ~ h && rm -rf h/",
            &[
                "run ln -s ~ h",
                "read ~",
                "write h",
                "run rm -rf h/",
                "delete /home/u recursively",
            ],
        ),
        (
            "ln -sfn /etc e; rm e/hosts",
            &[
                "run ln -sfn /etc e",
                "read /etc",
                "write e",
                "run rm e/hosts",
                "delete /etc/hosts",
            ],
        ),
        // A file link: writes and appends go to the target.
        (
            "ln -s ~/.bashrc rc && echo 'x' >> rc",
            &[
                "run ln -s ~/.bashrc rc",
                "read ~/.bashrc",
                "write rc",
                "run echo x",
                "append /home/u/.bashrc",
            ],
        ),
        // A relative target is relative to the link's folder; `ln T` links into the folder.
        (
            "mkdir -p a/b && ln -s ../../.git a/b/g && rm -rf a/b/g/",
            &[
                "run mkdir -p a/b",
                "write a/b",
                "run ln -s ../../.git a/b/g",
                "read ../../.git",
                "write a/b/g",
                "run rm -rf a/b/g/",
                "delete /p/.git recursively",
            ],
        ),
        (
            "cd /tmp && ln -s /var/lib/data && rm -rf data/",
            &[
                "run cd /tmp",
                "run ln -s /var/lib/data",
                "read /var/lib/data",
                "run rm -rf data/",
                "delete /var/lib/data recursively",
            ],
        ),
        // A pattern below the link names the target's files, the pattern kept; deeper
        // folders and a `cd` into the link too.
        (
            "ln -sfn ~ build && rm -rf build/* && rm build/src/*.rs",
            &[
                "run ln -sfn ~ build",
                "read ~",
                "write build",
                "run rm -rf build/*",
                "delete /home/u/* recursively",
                "run rm build/src/*.rs",
                "delete /home/u/src/*.rs",
            ],
        ),
        (
            "ln -s ~/.claude cg; cd cg && rm -rf *",
            &[
                "run ln -s ~/.claude cg",
                "read ~/.claude",
                "write cg",
                "run cd cg",
                "run rm -rf *",
                "delete /home/u/.claude/* recursively",
            ],
        ),
        // Removing the link itself keeps its name; a path beside the link is not through it.
        (
            "ln -s ~ h && rm h && rm -rf hx/",
            &[
                "run ln -s ~ h",
                "read ~",
                "write h",
                "run rm h",
                "delete h",
                "run rm -rf hx/",
                "delete hx/ recursively",
            ],
        ),
    ]);
}
