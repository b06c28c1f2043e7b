//! Inline code read in rounds and temporary folders: loops over literal sequences read once
//! per element, folders made by `tempfile` / `fs.mkdtemp` as scratch paths.

use super::tests::table;

#[test]
fn a_loop_over_a_literal_sequence_is_read_once_per_element() {
    table(&[
        (
            "python3 -c \"import json\nfor f in ['a.json', 'b.json']:\n    print(json.load(open(f)))\"",
            &["read a.json", "read b.json"],
        ),
        (
            "python3 -c \"names = ('x', '~/.ssh/id_rsa')\nimport os\nfor n in names: os.remove(os.path.expanduser(n))\"",
            &["delete x", "delete ~/.ssh/id_rsa"],
        ),
        // A comprehension, and one send that does not depend on the loop kept once.
        (
            "python3 -c \"import requests\nd = [open(p).read() for p in ['a', 'b']]\nrequests.get('https://example.com')\"",
            &["read a", "send https://example.com GET []", "read b"],
        ),
        // A name bound twice stays known only at run time.
        (
            "python3 -c \"f = 'x'\nfor f in ['a', 'b']: open(f)\"",
            &["read f (dynamic)"],
        ),
        (
            "node -e \"const fs = require('fs'); for (const f of ['a.json', 'b.json']) fs.readFileSync(f)\"",
            &["read a.json", "read b.json"],
        ),
        (
            "node -e \"const fs = require('fs'); const xs = ['a', 'b']; xs.forEach((f, i) => fs.rmSync(f))\"",
            &["delete a", "delete b"],
        ),
        // Spread elements are not a literal sequence.
        (
            "node -e \"const fs = require('fs'); for (const f of [...process.argv]) fs.rmSync(f)\"",
            &["unsure `fs.rm` with a path known only at run time"],
        ),
    ]);
}

#[test]
fn temporary_folders_the_code_makes_are_scratch_paths() {
    table(&[
        (
            "python3 -c \"import tempfile, shutil\npath = tempfile.mkdtemp()\ntry:\n    open(path + '/x.csv', 'w')\nfinally:\n    shutil.rmtree(path)\"",
            &[
                "write /tmp/tmpXXXXXXXX/x.csv",
                "delete /tmp/tmpXXXXXXXX recursively",
            ],
        ),
        (
            "python3 -c \"import tempfile, os\nwith tempfile.TemporaryDirectory() as d:\n    open(os.path.join(d, 'a'), 'w')\"",
            &["write /tmp/tmpXXXXXXXX/a"],
        ),
        // `dir=` places the new folder.
        (
            "python3 -c \"import tempfile, shutil\nshutil.rmtree(tempfile.mkdtemp(dir='/srv/data'))\"",
            &["delete /srv/data/tmpXXXXXXXX recursively"],
        ),
        (
            "python3 -c \"import tempfile\nprint(open(tempfile.gettempdir() + '/log.txt').read())\"",
            &["read /tmp/log.txt"],
        ),
        (
            "node -e \"const fs = require('fs'), os = require('os'), path = require('path'); const d = fs.mkdtempSync(path.join(os.tmpdir(), 't-')); fs.rmSync(d, {recursive: true})\"",
            &["delete /tmp/t-XXXXXX recursively"],
        ),
    ]);
}
