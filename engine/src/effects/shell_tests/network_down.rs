//! The machine's network taken down (the `network-down` grant): ip(8), ifconfig(8),
//! ifdown(8), nmcli(1), networksetup(8), rfkill(8), ufw(8), iptables(8), netsh(1)
//! `interface set interface … disable` and `Disable-NetAdapter`, each from its manual page or
//! reference; listings and bringing things up grant nothing.

use super::effects;

/// The network-down grants of `line`, by their detail.
fn down(line: &str) -> Vec<String> {
    effects(line)
        .list
        .iter()
        .filter_map(|e| match &e.what {
            crate::effects::What::Grant(g) if g.kind.name() == "network-down" => {
                Some(g.detail.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn interfaces_routes_and_addresses_taken_down_by_ip() {
    for (line, want) in [
        (
            "ip link set eth0 down",
            "a network interface taken down (`ip link set eth0 down`)",
        ),
        (
            "ip -4 -n blue l set dev eth0 down",
            "a network interface taken down (`ip -4 -n blue l set dev eth0 down`)",
        ),
        (
            "ip link delete eth0",
            "a network interface deleted (`ip link delete eth0`)",
        ),
        (
            "ip link del dev wg0",
            "a network interface deleted (`ip link del dev wg0`)",
        ),
        (
            "ip addr flush dev eth0",
            "the addresses of a network interface flushed (`ip addr flush dev eth0`)",
        ),
        (
            "ip route del default",
            "the default route deleted (`ip route del default`)",
        ),
        (
            "ip -6 r delete ::/0 via fe80::1",
            "the default route deleted (`ip -6 r delete ::/0 via fe80::1`)",
        ),
        (
            "ip route flush table main",
            "a routing table flushed (`ip route flush table main`)",
        ),
    ] {
        assert_eq!(down(line), [want], "{line}");
    }
}

#[test]
fn network_manager_radios_and_firewalls_taken_down() {
    for (line, want) in [
        (
            "nmcli networking off",
            "NetworkManager switched off (`nmcli networking off`)",
        ),
        (
            "nmcli -w 5 r wifi off",
            "a radio switched off (`nmcli -w 5 r wifi off`)",
        ),
        (
            "nmcli dev disconnect wlan0",
            "a network device disconnected (`nmcli dev disconnect wlan0`)",
        ),
        (
            "nmcli con down id Wired",
            "a network connection taken down (`nmcli con down id Wired`)",
        ),
        (
            "nmcli connection delete eth0",
            "a network connection taken down (`nmcli connection delete eth0`)",
        ),
        (
            "ifconfig eth0 down",
            "a network interface taken down (`ifconfig eth0 down`)",
        ),
        (
            "ifdown eth0",
            "a network interface taken down (`ifdown eth0`)",
        ),
        (
            "networksetup -setairportpower en0 off",
            "a network service or device switched off (`networksetup -setairportpower en0 off`)",
        ),
        ("rfkill block all", "a radio blocked (`rfkill block all`)"),
        (
            "sudo route del default gw 10.0.0.1",
            "the default route deleted (`route del default gw 10.0.0.1 (via sudo)`)",
        ),
        (
            "route delete 0.0.0.0",
            "the default route deleted (`route delete 0.0.0.0`)",
        ),
        (
            "sudo dhclient -r eth0",
            "the address lease released (`dhclient -r eth0 (via sudo)`)",
        ),
        (
            "ipconfig /release",
            "the address lease released (`ipconfig /release`)",
        ),
        (
            "iw dev wlan0 disconnect",
            "a wireless connection dropped (`iw dev wlan0 disconnect`)",
        ),
        (
            "ufw default deny outgoing",
            "every connection going out refused by the firewall (`ufw default deny outgoing`)",
        ),
        (
            "ip6tables -P OUTPUT REJECT",
            "every packet going out dropped by the firewall (`ip6tables -P OUTPUT REJECT`)",
        ),
    ] {
        assert_eq!(down(line), [want], "{line}");
    }
}

#[test]
fn windows_interfaces_disabled_on_every_route() {
    for line in [
        "netsh interface set interface \"Ethernet\" disable",
        "netsh int set interface name=Ethernet admin=disabled",
        "cmd /c \"netsh interface set interface Ethernet disabled\"",
    ] {
        let got = down(line);
        assert_eq!(got.len(), 1, "{line}: {got:?}");
        assert!(
            got[0].starts_with("a network interface disabled (`netsh "),
            "{line}: {got:?}"
        );
    }
    assert_eq!(
        down("powershell -c 'Disable-NetAdapter -Name Ethernet -Confirm:$false'"),
        ["a network interface disabled (`netsh interface set interface Ethernet admin=disabled`)"]
    );
}

#[test]
fn listings_and_bringing_up_grant_nothing() {
    for line in [
        "ip addr",
        "ip -br link",
        "ip link show eth0",
        "ip route show",
        "ip route flush cache",
        "ip route del 10.1.0.0/16",
        "ip link set eth0 up",
        "ip link add br0 type bridge",
        "nmcli con show",
        "nmcli networking on",
        "nmcli device status",
        "nmcli connection up id Wired",
        "ifconfig eth0 up",
        "ifdown --no-act eth0",
        "networksetup -listallnetworkservices",
        "networksetup -setairportpower en0 on",
        "rfkill list",
        "rfkill unblock all",
        "ufw status",
        "ufw default deny incoming",
        "iptables -P INPUT DROP",
        "iptables -A OUTPUT -p tcp --dport 25 -j DROP",
        "netsh interface show interface",
        "netsh interface set interface Ethernet enable",
        "powershell -c 'Get-NetAdapter'",
        "route -n",
        "route add default gw 10.0.0.1",
        "sudo route del -net 10.8.0.0/16",
        "dhclient eth0",
        "ipconfig /all",
        "ipconfig getifaddr en0",
        "iw dev wlan0 link",
        "wpa_cli status",
    ] {
        assert!(down(line).is_empty(), "{line}: {:?}", down(line));
    }
}
