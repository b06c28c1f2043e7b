//! Paths resolved in part: a folder the code names joined with a part known only at run time
//! (a loop name over a listing, a computed file name, a function's parameter) is that folder's
//! `*`, as the shell's `dir/*` is; without a known folder the path stays unknown, and commands
//! and URLs are never resolved in part.

use super::tests::table;

#[test]
fn python_paths_below_a_named_folder_resolve_in_part() {
    table(&[
        (
            // A comprehension over a sorted listing, then a loop over its result.
            "python3 - <<'PY'\nimport os\nbase = 'specs/c'\nfiles = [f for f in sorted(os.listdir(base)) if f.endswith('.md')]\nfor f in files:\n    print(open(os.path.join(base, f)).read())\nPY",
            &["read specs/c/*"],
        ),
        (
            // `os.walk`: the folder is the root or one below it.
            "python3 - <<'PY'\nimport os\nfor d, _, names in os.walk('/home/u/p/docs'):\n    for n in names:\n        path = os.path.join(d, n)\n        print(open(path).read())\nPY",
            &["read /home/u/p/docs/**/*"],
        ),
        (
            // A computed name in a secret folder is a read of that folder's files.
            r#"python3 -c "import os; d = os.path.expanduser('~/.ssh'); print(open(d + '/' + input()).read())""#,
            &["read ~/.ssh/*"],
        ),
        (
            r#"python3 -c "from pathlib import Path; print((Path('/home/u/p/out') / input()).read_text())""#,
            &["read /home/u/p/out/*"],
        ),
        (
            r#"python3 -c "import shutil; shutil.rmtree(f'/srv/cache/{input()}')""#,
            &["delete /srv/cache/* recursively"],
        ),
        (
            // No known folder before the unknown part: still a path known only at run time.
            r#"python3 -c "import os; print(open(os.path.join(input(), 'x.txt')).read())""#,
            &["read os.path.join(input(), 'x.txt') (dynamic)"],
        ),
        (
            // A command line is not a path: `rm -rf *` is not what runs.
            r#"python3 -c "import os; os.system('rm -rf /srv/' + input())""#,
            &["unsure `os.system` with a command known only at run time"],
        ),
    ]);
}

#[test]
fn javascript_paths_below_a_named_folder_resolve_in_part() {
    table(&[
        (
            r#"node -e "const fs = require('fs'); const dir = '/home/u/p/screens'; for (const f of fs.readdirSync(dir)) { JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8')) }""#,
            &["read /home/u/p/screens/*"],
        ),
        (
            "node - <<'JS'\nconst fs = require('fs');\nconst path = require('path');\nconst OUT = '/home/u/p/out';\nfunction slug(t) { return t.toLowerCase(); }\nfunction save(t, data) { fs.writeFileSync(path.join(OUT, `${slug(t)}.json`), data); }\nsave(process.argv[2], '{}');\nJS",
            &["write /home/u/p/out/*.json"],
        ),
        (
            r#"node -e "const fs = require('fs'); fs.rmSync(process.argv[1] + '/build', {recursive: true})""#,
            &["unsure `fs.rm` with a path known only at run time"],
        ),
        (
            // A URL is not a path: its host stays unknown.
            r#"node -e "fetch('https://' + process.argv[1] + '/x', {method: 'POST', body: 'a'})""#,
            &["unsure `fetch` with a URL known only at run time"],
        ),
    ]);
}

#[test]
fn runtime_folders_of_code_on_the_command_line_are_the_working_directory() {
    table(&[
        (
            "python3 - <<'PY'\nfrom pathlib import Path\nout = Path(__file__).parent / 'report.json'\nout.write_text('{}')\nPY",
            &["write ./report.json = \"{}\""],
        ),
        (
            "python3 - <<'PY'\nimport os\nhere = os.path.dirname(os.path.abspath(__file__))\nopen(os.path.join(here, 'a.txt'), 'w').write('x')\nPY",
            &["write a.txt = \"x\""],
        ),
        (
            r#"node -e "const fs = require('fs'); const path = require('path'); fs.writeFileSync(path.join(__dirname, 'out.json'), '{}'); fs.mkdirSync(path.join(process.cwd(), 'dist'))""#,
            &["write ./out.json = \"{}\"", "write ./dist"],
        ),
        (
            // `-c` code has no `__file__`.
            r#"python3 -c "open(__file__ + '.bak', 'w').write('x')""#,
            &["unsure `open` with a path known only at run time"],
        ),
    ]);
}

#[test]
fn a_name_bound_more_than_once_is_the_assignment_that_reaches_its_use() {
    table(&[
        (
            // Rebound by a later loop, outside the loop that reads it.
            "python3 - <<'PY'\nimport os\nmissing = []\nfor d, _, names in os.walk('/home/u/p/docs'):\n    for n in names:\n        path = os.path.join(d, n)\n        with open(path) as f:\n            missing.append((path, f.read()))\nfor path, text in missing:\n    print(path)\nPY",
            &["read /home/u/p/docs/**/*"],
        ),
        (
            // Straight-line rebinding: the last assignment before the use.
            r#"python3 -c "p = 'a.txt'; p = '/home/u/.ssh/id_rsa'; print(open(p).read())""#,
            &["read /home/u/.ssh/id_rsa"],
        ),
        (
            // Rebound later in the loop that reads it: either value may be read.
            "python3 - <<'PY'\np = 'a.txt'\nfor i in range(2):\n    print(open(p).read())\n    p = input()\nPY",
            &["read p (dynamic)"],
        ),
        (
            // Assigned in a branch: not on every path to the use.
            "python3 - <<'PY'\nimport sys\np = 'a.txt'\nif len(sys.argv) > 1:\n    p = '/etc/shadow'\nprint(open(p).read())\nPY",
            &["read p (dynamic)"],
        ),
    ]);
}
