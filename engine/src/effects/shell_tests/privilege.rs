//! Grants: what a command gives beyond running (sudo(8), su(1), pkexec(1), doas(1),
//! nsenter(1), unshare(1), setcap(8), chmod(1), install(1), docker-run and kubectl
//! references), and the targets of kills fed by process lookups (pgrep(1), pidof(8)).

use super::{effects, fx};
use crate::effects::{EffectKind, What, effects_of};
use crate::shell_env::ShellEnv;

/// The grants of a line (`kind path-or-dash`), from the shell lens and the derived passes.
fn grants(line: &str) -> Vec<String> {
    let env = ShellEnv::new(None, "/home/u");
    let payload =
        serde_json::json!({"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": line}});
    effects_of(&payload, &env)
        .of(EffectKind::Grant)
        .filter_map(|e| match &e.what {
            What::Grant(g) => Some(format!(
                "{} {}",
                g.kind.name(),
                g.path.as_ref().map_or("-", |p| p.text.as_str())
            )),
            _ => None,
        })
        .collect()
}

fn check(cases: &[(&str, &[&str])]) {
    for (line, want) in cases {
        assert_eq!(grants(line), *want, "{line}");
    }
}

#[test]
fn shells_as_root_or_another_user() {
    let shell: &[&str] = &["privileged-shell -"];
    check(&[
        ("sudo -i", shell),
        ("sudo -s", shell),
        ("sudo --login", shell),
        ("sudo -iu deploy", shell),
        ("sudo -u bob -s", shell),
        ("sudo su -", shell),
        ("sudo su", shell),
        ("sudo bash", shell),
        ("sudo -E bash -l", shell),
        ("sudo env zsh", shell),
        ("sudo -- /bin/sh", shell),
        ("pkexec", shell),
        ("pkexec sh", shell),
        ("pkexec --user root bash", shell),
        ("run0", shell),
        ("run0 -u root zsh", shell),
        ("doas -s", shell),
        ("doas sh", shell),
        // Windows: gsudo alone is an elevated copy of the current shell.
        ("gsudo", shell),
        ("gsudo powershell", shell),
        ("gsudo -u Administrator cmd", shell),
        ("sudo pwsh", shell),
        ("su", shell),
        ("su -", shell),
        ("su - root", shell),
        ("su postgres", shell),
        ("su -l postgres", shell),
        ("su -c bash", shell),
        ("su -s /bin/bash -c 'bash -l' www-data", shell),
        // A shell among the commands of the `-c` text is a shell too.
        ("su - root -c 'id && bash'", shell),
        ("su -c 'cd /; exec bash -l'", shell),
    ]);
}

#[test]
fn commands_run_as_root_are_no_grant() {
    check(&[
        ("sudo apt-get install -y ripgrep", &[]),
        ("gsudo winget install Git.Git", &[]),
        ("gsudo cmd /c dir", &[]),
        ("sudo systemctl restart nginx", &[]),
        ("sudo -u postgres psql -c 'select 1'", &[]),
        ("sudo -l", &[]),
        ("sudo -v", &[]),
        ("sudo bash -c 'apt-get update'", &[]),
        ("sudo bash ./install.sh", &[]),
        ("sudo bash <<'EOF'\nsystemctl status nginx\nEOF", &[]),
        ("sudo sh < setup.sh", &[]),
        ("su postgres -c 'psql -l'", &[]),
        ("su -c 'make install' root", &[]),
        // A shell fed by a pipe runs that script; a quoted word is not a shell's name.
        ("su -c 'cat setup.sh | bash'", &[]),
        ("su -c 'echo \"a; bash\"'", &[]),
        ("pkexec apt-get update", &[]),
        ("doas pkg_add vim", &[]),
        ("bash", &[]),
        ("bash -l", &[]),
        ("su --help", &[]),
        ("sudo -V", &[]),
        ("pkexec --version", &[]),
        // `-l` after the command is the command's option, not sudo's list.
        ("sudo ls -l /root", &[]),
    ]);
}

#[test]
fn su_c_text_is_analysed_as_a_line() {
    assert!(
        fx("su -c 'rm -rf /tmp/x' root")
            .iter()
            .any(|e| e == "delete /tmp/x recursively")
    );
}

#[test]
fn namespaces() {
    check(&[
        ("nsenter -t 1 -m -u -i -n sh", &["host-namespace -"]),
        (
            "nsenter --target 1 --mount --uts --ipc --net --pid -- bash",
            &["host-namespace -"],
        ),
        ("unshare -r sh", &["user-namespace -", "privileged-shell -"]),
        (
            "unshare --map-root-user --mount bash",
            &["user-namespace -", "privileged-shell -"],
        ),
        // unshare(1) runs `${SHELL}` when given no program.
        ("unshare -r -m", &["user-namespace -", "privileged-shell -"]),
        ("unshare -r true", &["user-namespace -"]),
        ("unshare --mount --pid --fork true", &[]),
    ]);
    // What nsenter and unshare run is a command of its own.
    assert!(
        fx("nsenter -t 1 -m sh -c 'cat /etc/shadow'")
            .iter()
            .any(|e| e == "read /etc/shadow")
    );
}

#[test]
fn containers() {
    check(&[
        (
            "docker run --privileged -it ubuntu sh",
            &["privileged-container -"],
        ),
        (
            "podman create --privileged alpine",
            &["privileged-container -"],
        ),
        (
            "docker exec --privileged -it web sh",
            &["privileged-container -"],
        ),
        ("docker run -v /:/host ubuntu", &["host-mount /"]),
        (
            "docker run -v /var/run/docker.sock:/var/run/docker.sock x",
            &["host-mount /var/run/docker.sock"],
        ),
        ("docker run --volume=/etc:/e:ro x", &["host-mount /etc"]),
        (
            "docker run --mount type=bind,source=/etc,target=/x x",
            &["host-mount /etc"],
        ),
        (
            "docker run --mount type=bind,src=/root,dst=/r,readonly x",
            &["host-mount /root"],
        ),
        (
            "docker run --mount type=volume,source=data,target=/d x",
            &[],
        ),
        ("docker run -v data:/d -v /anon x", &[]),
        ("docker run --pid=host alpine", &["host-namespace -"]),
        (
            "docker run --ipc host --uts=host alpine",
            &["host-namespace -"],
        ),
        ("docker run --pid=container:web alpine", &[]),
        ("docker run --net=host redis", &["host-network -"]),
        ("docker run --network host redis", &["host-network -"]),
        ("docker run --network bridge redis", &[]),
        ("docker run --cap-add=ALL x", &["capability -"]),
        ("docker run --cap-add SYS_ADMIN x", &["capability -"]),
        ("docker run --cap-add cap_sys_ptrace x", &["capability -"]),
        (
            "docker run --cap-add NET_ADMIN x",
            &["network-capability -"],
        ),
        (
            "docker run --cap-add NET_BIND_SERVICE --cap-drop ALL x",
            &[],
        ),
        (
            "docker run --security-opt seccomp=unconfined x",
            &["capability -"],
        ),
        (
            "docker run --security-opt apparmor:unconfined x",
            &["capability -"],
        ),
        ("docker run --security-opt no-new-privileges x", &[]),
        (
            "docker run --device /dev/sda:/dev/xvda x",
            &["device /dev/sda"],
        ),
        ("docker run -p 8080:80 nginx", &[]),
        (
            "docker run -v=/:/host --device=/dev/mem x",
            &["device /dev/mem", "host-mount /"],
        ),
        ("docker run --privileged=false alpine", &[]),
        (
            "ctr run --privileged --mount type=bind,src=/,dst=/host,options=rbind:rw docker.io/library/alpine:latest x sh",
            &["host-mount /", "privileged-container -"],
        ),
        ("docker run --rm -it -e A=1 -w /src ubuntu bash", &[]),
    ]);
    assert_eq!(
        grants("docker run --rm -v \"$PWD\":/src -w /src rust cargo build"),
        ["host-mount /p"]
    );
}

#[test]
fn pods() {
    check(&[
        (
            "kubectl run x --image=alpine --privileged -- sh",
            &["privileged-container -"],
        ),
        (
            r#"kubectl run x --image=a --overrides='{"spec":{"hostPID":true,"hostNetwork":true,"containers":[{"securityContext":{"privileged":true}}]}}'"#,
            &[
                "host-namespace -",
                "host-network -",
                "privileged-container -",
            ],
        ),
        (
            "kubectl apply -f - <<EOF\nspec:\n  hostIPC: true\n  volumes:\n  - name: r\n    hostPath:\n      path: /etc\n      type: Directory\nEOF",
            &["host-namespace -", "host-mount /etc"],
        ),
        (
            "kubectl apply -f - <<EOF\nspec:\n  containers:\n  - securityContext:\n      capabilities:\n        add: [\"SYS_ADMIN\"]\nEOF",
            &["capability -"],
        ),
        (
            "kubectl debug node/n1 -it --image=busybox",
            &["host-namespace -", "host-mount /"],
        ),
        (
            "kubectl debug -it web --image=busybox --profile=sysadmin",
            &["privileged-container -"],
        ),
        (
            r#"kubectl patch deploy web -p '{"spec":{"template":{"spec":{"hostNetwork":true}}}}'"#,
            &["host-network -"],
        ),
        ("kubectl run tmp --image=busybox --rm -it -- sh", &[]),
        ("kubectl apply -f deploy.yaml", &[]),
        (
            "kubectl apply -f - <<EOF\nspec:\n  securityContext:\n    privileged: false\n    runAsNonRoot: true\nEOF",
            &[],
        ),
    ]);
}

#[test]
fn setuid_bits_and_file_capabilities() {
    check(&[
        ("chmod 4755 ./a", &["setuid ./a"]),
        ("chmod 2755 d", &["setuid d"]),
        ("chmod 6755 d", &["setuid d"]),
        ("chmod u+s a", &["setuid a"]),
        ("chmod g+s a", &["setuid a"]),
        ("chmod +s a", &["setuid a"]),
        ("chmod a+s a", &["setuid a"]),
        (
            "install -m 4755 a /usr/local/bin/b",
            &["setuid /usr/local/bin/b"],
        ),
        ("install -m4755 a b", &["setuid b"]),
        ("install --mode=u+s a b", &["setuid b"]),
        (
            "python3 -c 'import os; os.chmod(\"/tmp/sh\", 0o4755)'",
            &["setuid /tmp/sh"],
        ),
        ("chmod =4755 /tmp/x", &["setuid /tmp/x"]),
        ("chmod +4000 /tmp/x", &["setuid /tmp/x"]),
        ("chmod u=rwxs /tmp/x", &["setuid /tmp/x"]),
        // perlfunc `chmod LIST`, Ruby `File.chmod`/`FileUtils.chmod`, PHP `chmod()`; node's
        // `fs.chmodSync`.
        ("perl -e 'chmod 04755, \"/tmp/b\"'", &["setuid /tmp/b"]),
        ("perl -e 'chmod 2541, \"/tmp/b\"'", &["setuid /tmp/b"]),
        ("ruby -e 'File.chmod(04755,\"/tmp/b\")'", &["setuid /tmp/b"]),
        (
            "ruby -e 'FileUtils.chmod(\"u+s\", \"/tmp/b\")'",
            &["setuid /tmp/b"],
        ),
        ("php -r 'chmod(\"/tmp/b\", 04755);'", &["setuid /tmp/b"]),
        (
            "node -e \"require('fs').chmodSync('/tmp/b', 0o4755)\"",
            &["setuid /tmp/b"],
        ),
        ("perl -e 'chmod 0755, \"bin/run\"'", &[]),
        ("php -r 'chmod(\"bin/run\", 0755);'", &[]),
        ("chmod -4000 /tmp/x", &[]),
        ("setcap cap_net_raw+ep ./a", &["file-capability ./a"]),
        (
            "setcap cap_net_raw+ep a cap_setuid=ep b",
            &["file-capability a", "file-capability b"],
        ),
        ("setcap -r ./a", &[]),
        ("setcap -v cap_net_raw+ep ./a", &[]),
        ("getcap ./a", &[]),
        ("chmod 755 script.sh", &[]),
        ("chmod +x a", &[]),
        ("chmod u+rwx ~/bin/x", &[]),
        // The sticky bit sets no set-uid bit; the others' write bit opens the folder.
        ("chmod 1777 /tmp/shared", &["open-access /tmp/shared"]),
        ("chmod u-s a", &[]),
        ("install -m 755 a b", &[]),
        ("chown root:root a", &[]),
    ]);
}

#[test]
fn kills_fed_by_process_lookups_signal_what_was_looked_up() {
    let signals = |line: &str| -> Vec<String> {
        effects(line)
            .list
            .iter()
            .filter_map(|e| match &e.what {
                What::Signal { targets, .. } => Some(
                    targets
                        .iter()
                        .map(|t| t.text.clone())
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            })
            .collect()
    };
    assert_eq!(signals("kill $(pgrep seamguard)"), ["$(…) seamguard"]);
    assert_eq!(
        signals("kill -9 `pidof seamguard-hook`"),
        ["$(…) seamguard-hook"]
    );
    assert_eq!(
        signals("pgrep -u me -f 'seamguard serve' | xargs kill"),
        ["seamguard serve"]
    );
    assert_eq!(signals("kill $(cat app.pid)"), ["$(…)"]);
    assert_eq!(
        signals("ps aux | grep '[s]eamguard' | awk '{print $2}' | xargs kill -9"),
        ["seamguard"]
    );
    assert_eq!(
        signals("kill $(ps -ef | grep -v grep | grep seamguard | awk '{print $2}')"),
        ["$(…) seamguard"]
    );
    assert_eq!(signals("kill 12345; kill %1"), ["12345", "%1"]);
    // A lookup on the line does not rename literal targets.
    assert_eq!(signals("pgrep node; kill 42"), ["42"]);
    // Nothing looked up: a kill fed by xargs has no target the lens can name.
    assert!(signals("lsof -ti:3000 | xargs kill -9").is_empty());
}

/// usermod(8) `-G`/`-g`, useradd(8), gpasswd(1) `-a`/`-M`/`-d`, adduser(8) `USER GROUP` and
/// `--ingroup`, BusyBox `adduser -G`, dseditgroup(8) `-o edit -a USER -t user GROUP`.
#[test]
fn groups_that_hold_root() {
    let admin: &[&str] = &["admin-group -"];
    let daemon: &[&str] = &["daemon-group -"];
    check(&[
        ("usermod -aG sudo me", admin),
        ("sudo usermod -a -G video,wheel me", admin),
        ("usermod --groups=adm me", admin),
        ("useradd -m -G users,sudo eve", admin),
        ("gpasswd -a me wheel", admin),
        ("gpasswd -M me,bob shadow", admin),
        ("adduser me sudo", admin),
        ("adduser --ingroup admin eve", admin),
        ("adduser -G wheel eve", admin),
        ("addgroup me disk", admin),
        ("dseditgroup -o edit -a me -t user admin", admin),
        ("usermod -aG \"$GROUP\" me", admin),
        ("usermod -aG docker \"$USER\"", daemon),
        ("gpasswd -a dev lxd", daemon),
        ("adduser dev libvirt", daemon),
        ("usermod -aG video,dialout me", &[]),
        ("gpasswd -d me docker", &[]),
        ("dseditgroup -o edit -d me -t user admin", &[]),
        ("adduser eve", &[]),
        ("usermod -l newname bob", &[]),
        ("usermod -s /bin/zsh me", &[]),
    ]);
}

/// ssh(1) `-R`, ngrok(1), `cloudflared tunnel`, localtunnel's `lt`, bore, `tailscale funnel`.
#[test]
fn ports_published_beyond_the_machine() {
    let published: &[&str] = &["published-port -"];
    check(&[
        ("ssh -R 8080:localhost:3000 user@host", published),
        ("ssh -NR 80:localhost:22 serveo.net", published),
        ("autossh -M 0 -R 2222:localhost:22 relay", published),
        ("ngrok http 3000", published),
        ("ngrok tcp 22", published),
        ("cloudflared tunnel --url http://localhost:8000", published),
        ("cloudflared tunnel run blog", published),
        ("lt --port 3000", published),
        ("bore local 3000 --to bore.pub", published),
        ("tailscale funnel 3000", published),
        ("ssh -L 5432:db:5432 bastion", &[]),
        ("ssh -D 1080 host", &[]),
        ("ssh host ls", &[]),
        ("sftp -R 64 host", &[]),
        ("ngrok config add-authtoken x", &[]),
        ("ngrok http --help", &[]),
        ("cloudflared tunnel list", &[]),
        ("cloudflared tunnel login", &[]),
        ("bore server", &[]),
        ("tailscale funnel status", &[]),
        ("tailscale funnel 3000 off", &[]),
    ]);
}

/// kubectl-port-forward(1) `--address`: a cluster's port forwarded onto an address of this
/// machine beyond the loopback one (`0.0.0.0`, `::`, a LAN address, one of a list) is
/// published to its network; the default (`localhost`) and loopback addresses are not.
#[test]
fn cluster_ports_forwarded_beyond_loopback() {
    let published: &[&str] = &["published-port -"];
    check(&[
        (
            "kubectl port-forward svc/postgres 5432:5432 --address 0.0.0.0 -n prod",
            published,
        ),
        ("kubectl port-forward pod/web 8080 --address=::", published),
        (
            "oc -n dev port-forward deploy/api 9000:80 --address 192.168.1.20",
            published,
        ),
        (
            "kubectl port-forward svc/x 80 --address localhost,10.0.0.5",
            published,
        ),
        (
            "kubectl port-forward svc/x 80 --address \"$ADDR\"",
            published,
        ),
        ("kubectl port-forward svc/postgres 5432:5432 -n prod", &[]),
        ("kubectl port-forward svc/x 80 --address 127.0.0.1,::1", &[]),
        ("kubectl port-forward svc/x 80 --address localhost", &[]),
        ("kubectl get pods --address 0.0.0.0", &[]),
    ]);
}

/// docker-compose-run reference: `-v`/`--volume` and `--cap-add` of a one-off container.
#[test]
fn compose_run_mounts_are_grants() {
    check(&[
        ("docker compose run --rm -v /:/h app sh", &["host-mount /"]),
        (
            "docker-compose run -v /var/run/docker.sock:/var/run/docker.sock app",
            &["host-mount /var/run/docker.sock"],
        ),
        ("docker compose run --rm app pytest", &[]),
        ("docker compose up -d", &[]),
    ]);
}

/// Programs that hand out a shell of their own (a `!sh` command, a shell window, a prompt),
/// run through an escalation: from GTFOBins' "sudo" entries and vim(1), less(1), screen(1),
/// tmux(1), script(1), journalctl(1), chroot(8), git(1) `-p` and `help`.
#[test]
fn programs_that_hand_out_a_shell_through_an_escalation() {
    let shell: &[&str] = &["privileged-shell -"];
    let both: &[&str] = &["privileged-shell -", "privileged-shell -"];
    check(&[
        ("sudo script -q /dev/null", shell),
        // With no file, vim as root is a prompt of its own (one grant) and the `!sh` it is
        // given runs a shell (the second, from the row's escape role).
        ("sudo vim -c ':!sh'", both),
        ("sudo vim", shell),
        ("sudo -u bob vim +'!sh'", both),
        ("sudo vim -c ':!sh' /etc/hosts", shell),
        ("sudo vim -c 'set ft=nginx' /etc/nginx/nginx.conf", &[]),
        ("sudo nvim --cmd 'term'", shell),
        ("sudo emacs --eval '(shell)'", shell),
        ("sudo ed", shell),
        ("sudo less /etc/profile", shell),
        ("sudo man man", shell),
        ("sudo screen", shell),
        ("sudo env SHELL=/bin/sh tmux", shell),
        ("doas tmux new -s x", shell),
        ("sudo python3", shell),
        ("sudo python3 -i x.py", shell),
        // Inline code as root is the first grant; the shell it `exec`s, read by the
        // language's scanner, the second.
        ("sudo perl -e 'exec \"/bin/sh\"'", both),
        ("sudo ruby -e 'exec \"/bin/sh\"'", both),
        ("sudo irb", shell),
        ("sudo node", shell),
        ("sudo php -a", shell),
        ("pkexec lua", shell),
        ("sudo journalctl", shell),
        ("sudo journalctl -xe", shell),
        ("sudo systemctl", shell),
        ("sudo git -p help config", shell),
        ("sudo git help config", shell),
        ("sudo chroot /", shell),
        ("sudo chroot / bash", shell),
        ("sudo nice -n 5 gdb", shell),
    ]);
    // Everyday: a narrowed report, a script or module, an editor given a file (judged by the
    // file), a report of sessions, the same programs without an escalation.
    check(&[
        ("sudo journalctl -u nginx --no-pager -n 50", &[]),
        ("sudo journalctl -u nginx -n 50", &[]),
        ("sudo journalctl --no-pager", &[]),
        ("sudo systemctl status nginx", &[]),
        ("sudo systemctl restart nginx", &[]),
        ("sudo python3 -m pip --version", &[]),
        ("sudo python3 setup.py install", &[]),
        ("echo 'print(1)' | sudo python3", &[]),
        ("sudo vim /etc/hosts", &[]),
        ("sudo vim +42 /etc/hosts", &[]),
        ("sudo vim --version", &[]),
        ("sudo tmux ls", &[]),
        ("sudo screen -ls", &[]),
        ("sudo script -c make build.log", &[]),
        ("sudo git log --oneline -3", &[]),
        ("sudo chroot /mnt/sys apt-get update", &[]),
        ("vim", &[]),
        ("python3", &[]),
        ("tmux", &[]),
        ("less README.md", &[]),
    ]);
}

/// Container and machine grants beside `docker run --privileged`: docker-exec(1) `--user`,
/// a container engine's socket opened to every user (chmod(1)), LXD/Incus
/// `security.privileged`, machinectl(1) `shell`.
#[test]
fn container_engine_sockets_root_in_containers_and_machine_shells() {
    check(&[
        (
            "sudo chmod 666 /var/run/docker.sock",
            &[
                "daemon-group /var/run/docker.sock",
                "open-access /var/run/docker.sock",
            ],
        ),
        (
            "sudo chmod o+rw /var/run/docker.sock",
            &[
                "daemon-group /var/run/docker.sock",
                "open-access /var/run/docker.sock",
            ],
        ),
        ("docker exec -u 0 -it app bash", &["privileged-container -"]),
        (
            "docker exec --user root app sh",
            &["privileged-container -"],
        ),
        ("docker exec --user=0:0 app sh", &["privileged-container -"]),
        (
            "lxc config set c1 security.privileged true",
            &["privileged-container -"],
        ),
        ("machinectl shell root@.host", &["privileged-shell -"]),
        ("machinectl shell", &["privileged-shell -"]),
        ("sudo chmod 660 /var/run/docker.sock", &[]),
        ("docker exec app ls", &[]),
        ("docker exec -it app bash", &[]),
        ("docker exec -u node app npm test", &[]),
        ("lxc config set c1 limits.cpu 2", &[]),
        ("machinectl list", &[]),
        ("chown 666 x.sock", &[]),
    ]);
}

#[test]
fn setpriv_chroot_and_inline_code_make_root_shells() {
    let shell: &[&str] = &["privileged-shell -"];
    check(&[
        ("setpriv --reuid=0 sh", shell),
        ("setpriv --reuid 0 --regid 0 --init-groups bash -l", shell),
        ("chroot /mnt sh", shell),
        ("chroot /srv/root", shell),
        (
            "python3 -c 'import os; os.setuid(0); os.system(\"id\")'",
            shell,
        ),
        ("node -e 'process.setuid(0)'", shell),
        ("perl -e '$> = 0; exec \"sh\"'", shell),
        // A command run as the user given is judged by what it does.
        ("setpriv --reuid=0 id", &[]),
        ("setpriv --no-new-privs sh", &[]),
        ("chroot /srv/root /bin/ls -l", &[]),
        ("python3 -c 'import os; print(os.geteuid())'", &[]),
        ("python3 -c 'import os; os.setuid(1000)'", &[]),
        ("su --help; runuser --help", &[]),
    ]);
}

#[test]
fn mounts_name_their_mount_point() {
    check(&[
        ("mount --bind / /tmp/x", &["mount /tmp/x"]),
        ("mount -o remount,rw /", &["mount /"]),
        ("mount /dev/sda1 /mnt", &["mount /mnt"]),
        (
            "mount -t ext4 -o ro /dev/sdb1 /media/usb",
            &["mount /media/usb"],
        ),
        ("mount -a", &["mount -"]),
        ("mount", &[]),
        ("mount -l", &[]),
        ("mount -t ext4", &[]),
        ("mount --help", &[]),
        ("findmnt; df -h", &[]),
    ]);
}
