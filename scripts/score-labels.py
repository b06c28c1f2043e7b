#!/usr/bin/env python3
"""Score a seamguard replay against a hand classification of its interruptions.

usage: python3 scripts/score-labels.py REPLAY.json [LABELS.jsonl]

  cargo run --locked -- replay data/fresh --policy policies --format json > /tmp/fresh.json
  python3 scripts/score-labels.py /tmp/fresh.json            # labels: data/fresh-labels.jsonl

Reads the replay JSON (seamguard replay ... --format json) and classification.jsonl
(one row per interruption: file, index, call_id, subject, summary, rule, class TP|FF, why),
and prints, per file and in total: pre-tool events, interruptions (asks + denies a user
would see, after approvals as the replay models them), true positives, false flags and
interruptions not yet classified, each also per 1,000 pre-tool events.

Rows are matched to interruptions by file + call id when the recorded call has one,
else by file + line index + the start of the call summary, so a rerun with a changed
policy (other rules, other verdicts) still finds the hand verdicts of calls it still flags.
"""
import json, os, re, sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call_id(path, line, summary):
    """The tool call id of the call at `line` of `path` (None when the record has none)."""
    try:
        with open(path, encoding='utf-8') as fh:
            for n, text in enumerate(fh, 1):
                if n == line:
                    rec = json.loads(text)
                    break
            else:
                return None
    except (OSError, ValueError):
        return None
    if isinstance(rec, dict):
        if rec.get('tool_use_id'):
            return rec['tool_use_id']
        payload = rec.get('payload')
        if isinstance(payload, dict):
            if payload.get('call_id'):
                return payload['call_id']
            inner = payload.get('payload') if isinstance(payload.get('payload'), dict) else payload
            if inner.get('tool_use_id'):
                return inner['tool_use_id']
        msg = rec.get('message')
        if isinstance(msg, dict) and isinstance(msg.get('content'), list):
            uses = [b for b in msg['content'] if isinstance(b, dict) and b.get('type') == 'tool_use']
            head = (summary or '').rstrip('…')[:40]
            for b in uses:
                if head and head in json.dumps(b.get('input'), ensure_ascii=False).replace('\\"', '"'):
                    return b.get('id')
            if len(uses) == 1:
                return uses[0].get('id')
    return None


def key_of(file, call, index, summary):
    if call:
        return (file, 'id', call)
    return (file, 'at', index, (summary or '')[:60])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    replay_path = sys.argv[1]
    cls_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, 'data', 'fresh-labels.jsonl')
    replay = json.load(open(replay_path, encoding='utf-8'))
    rows = {}
    for text in open(cls_path, encoding='utf-8'):
        if text.strip():
            r = json.loads(text)
            rows[key_of(r['file'], r.get('call_id'), r['index'], r.get('summary'))] = r

    pre = {os.path.basename(f['path']): f['pre_tool'] for f in replay['files']}
    stats = defaultdict(lambda: defaultdict(int))
    unclassified = []
    for d in replay['decisions']:
        if d.get('seam') != 'pre-tool' or d.get('verdict') not in ('ask', 'deny'):
            continue  # allowed (incl. covered by an earlier approval) is no interruption
        f = os.path.basename(d['file'])
        cid = call_id(d['file'], d['line'], d.get('summary'))
        row = rows.get(key_of(f, cid, d['line'], d.get('summary')))
        s = stats[f]
        s['interruptions'] += 1
        s[d['verdict']] += 1
        if row is None:
            s['unclassified'] += 1
            unclassified.append((f, d['line'], cid, d['rules'], d.get('summary', '')[:80]))
        else:
            s[row['class']] += 1

    def per_k(n, p):
        return f'{1000.0 * n / p:6.2f}' if p else '   n/a'

    hdr = f"{'file':18} {'pre':>5} {'int':>4} {'ask':>4} {'deny':>4} {'TP':>3} {'FF':>3} {'?':>3}   {'int/1k':>6} {'TP/1k':>6} {'FF/1k':>6}"
    print(hdr)
    print('-' * len(hdr))
    tot = defaultdict(int)
    def sortkey(name):
        m = re.match(r'([a-z]+)-(\d+)', name)
        return (m.group(1), int(m.group(2))) if m else (name, 0)
    for f in sorted(pre, key=sortkey):
        s = stats[f]
        p = pre[f]
        tot['pre'] += p
        for k in ('interruptions', 'ask', 'deny', 'TP', 'FF', 'unclassified'):
            tot[k] += s[k]
        print(f"{f:18} {p:5} {s['interruptions']:4} {s['ask']:4} {s['deny']:4} {s['TP']:3} {s['FF']:3} {s['unclassified']:3}   "
              f"{per_k(s['interruptions'], p)} {per_k(s['TP'], p)} {per_k(s['FF'], p)}")
    print('-' * len(hdr))
    p = tot['pre']
    print(f"{'TOTAL':18} {p:5} {tot['interruptions']:4} {tot['ask']:4} {tot['deny']:4} {tot['TP']:3} {tot['FF']:3} {tot['unclassified']:3}   "
          f"{per_k(tot['interruptions'], p)} {per_k(tot['TP'], p)} {per_k(tot['FF'], p)}")
    summary = replay.get('interruptions', {})
    if summary:
        print(f"\nreplay's own count: {summary.get('interruptions')} interruptions over {summary.get('pre_tool_events')} pre-tool events "
              f"(approvals modelled: {summary.get('approvals_modelled')})")
    if unclassified:
        print('\nnot yet classified (add rows to the labels file):')
        for u in unclassified:
            print('  ', *u)


if __name__ == '__main__':
    main()
