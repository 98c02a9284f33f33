#!/usr/bin/env python3
"""Writes lakeqa's own CMDBench-format questions from the data itself (docs/cmdbench.md, "Our questions").

Usage: bench/cmdbench/make_questions.py <cmdbench-nba dir> <demo wikipedia source dir> <out dir>

Every question is instantiated from a template with values drawn (seeded, so the output is reproducible)
from the NBA graph CSVs, the WikiSQL tables, or the demo's Wikipedia pages; its answer and provenance are
read from the same row. Nothing is taken from CMDBench's own question sets, which stay held out.
"""
import csv
import json
import os
import random
import sys

R = random.Random(16)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def graph(root):
    nodes, names, edges = {}, {}, {}
    for fn in sorted(os.listdir(root)):
        rows = read_csv(os.path.join(root, fn))
        head, body = rows[0], rows[1:]
        if fn.startswith("relation_"):
            edges[fn[9:-4]] = [dict(zip(["start", "end"] + head[2:], r)) for r in body]
        else:
            label = fn[:-4]
            nodes[label] = {r[0]: dict(zip(["id"] + head[1:], r)) for r in body}
    for label, ns in nodes.items():
        for i, n in ns.items():
            names.setdefault(n["name"], []).append(label)
    return nodes, names, edges


def q(qid, question, answer, **prov):
    out = {"qid": qid, "question": question, "answer": answer}
    out.update(prov)
    return out


def cy(s):
    return s.replace("\\", "\\\\").replace("'", "\\'")


def graph_questions(root):
    nodes, names, edges = graph(root)
    unique = lambda label: [n for n in nodes[label].values() if len(names[n["name"]]) == 1 and n["name"]]
    teams = unique("Team")
    players = [p for p in unique("Player") if p.get("height") and p.get("date_of_birth")]
    out = []
    # point: one node's property
    for t in R.sample(teams, 8):
        if t.get("inception"):
            out.append(q(f"g-point-team-{t['id']}", f"In what year was the {t['name']} founded?", t["inception"],
                         provenance_graph={"cypher": f"MATCH (t:Team {{name: '{cy(t['name'])}'}}) RETURN t.inception AS inception",
                                           "type": "point"}))
    for p in R.sample(players, 8):
        out.append(q(f"g-point-height-{p['id']}", f"How tall is the basketball player {p['name']}?", p["height"],
                     provenance_graph={"cypher": f"MATCH (p:Player {{name: '{cy(p['name'])}'}}) RETURN p.height AS height",
                                       "type": "point"}))
    # path: an edge between two named nodes, or from a named node along one relation
    pf = [e for e in edges["playsFor"] if e["start"] in nodes["Player"] and e["sport_number"]
          and len(names[nodes["Player"][e["start"]]["name"]]) == 1]
    for e in R.sample(pf, 8):
        p, t = nodes["Player"][e["start"]]["name"], nodes["Team"][e["end"]]["name"]
        out.append(q(f"g-path-number-{e['start']}-{e['end']}", f"What jersey number did {p} wear for the {t}?", e["sport_number"],
                     provenance_graph={"cypher": f"MATCH (p:Player {{name: '{cy(p)}'}})-[r:playsFor]->(t:Team {{name: '{cy(t)}'}}) "
                                                 "RETURN r.sport_number AS sport_number", "type": "path"}))
    db = [e for e in edges["draftedBy"] if len(names[nodes["Player"][e["start"]]["name"]]) == 1]
    for e in R.sample(db, 6):
        p = nodes["Player"][e["start"]]["name"]
        out.append(q(f"g-path-drafted-{e['start']}", f"Which team drafted {p}?", nodes["Team"][e["end"]]["name"],
                     provenance_graph={"cypher": f"MATCH (p:Player {{name: '{cy(p)}'}})-[r:draftedBy]->(t:Team) RETURN t.name",
                                       "type": "path"}))
    # sub-graph: filters and counts over many edges
    for t in R.sample(teams, 10):
        ds = [e for e in edges["draftedBy"] if e["end"] == t["id"] and e["time"]]
        if not ds:
            continue
        year = R.choice(sorted({e["time"] for e in ds if e["time"]}))
        n = len({e["start"] for e in ds if e["time"] == year})
        out.append(q(f"g-sub-drafted-{t['id']}-{year}", f"How many players did the {t['name']} draft in {year}?", str(n),
                     provenance_graph={"cypher": f"MATCH (p:Player)-[r:draftedBy]->(t:Team {{name: '{cy(t['name'])}'}}) "
                                                 f"WHERE r.time = '{year}' RETURN count(p) AS players", "type": "sub-graph"}))
    return out


def table_questions(root):
    tables = json.load(open(os.path.join(root, "tables", "nba-datalake.wiki-tables.json")))
    out = []
    for t in R.sample(tables, 60):
        h, rows = t["header"], t["rows"]
        if len(rows) < 3 or len(h) < 3:
            continue
        row = [str(c) for c in R.choice(rows)]
        key = 0 if not h[0].lower() in ("no.", "round", "pick", "game", "rank") else 2 if len(h) > 2 else 1
        ask = R.choice([i for i in range(len(h)) if i != key])
        if not row[key].strip() or not row[ask].strip():
            continue
        if sum(1 for r in rows if str(r[key]) == row[key]) != 1:
            continue  # the key must identify the row
        where = t["page_title"] + ("" if t["section_title"] in ("", t["page_title"]) else " (" + t["section_title"] + ")")
        name = "t_" + t["id"].replace("-", "_")
        out.append(q(f"t-{t['id']}", f"In {where}, what is the {h[ask]} where the {h[key]} is {row[key]}?", row[ask],
                     provenance_table={"table": name, "column": str([h[key].lower(), h[ask].lower()])}))
        if len(out) >= 36:
            break
    return out


def doc_questions(wiki):
    out = []
    for title in sorted(os.listdir(wiki)):
        lines = open(os.path.join(wiki, title, "content.txt"), encoding="utf-8").read().split("\n")
        lead_id = next(i for i, l in enumerate(lines) if i > 0 and l.strip())
        lead = lines[lead_id]
        para = {"wikipedia_title": title.replace("_", " "), "paragraph_id": lead_id, "text": lead + "\n"}
        if "state capital is" in lead:
            cap = lead.split("state capital is ")[1].split(",")[0]
            abbr = lead.split("postal abbreviation is ")[1].split(".")[0]
            out.append(q(f"d-capital-{title}", f"What is the capital city of the US state of {para['wikipedia_title']}?", cap,
                         provenance_doc={"paragraphs": [para]}))
            out.append(q(f"d-postal-{title}", f"Which two-letter postal code does {para['wikipedia_title']} use?", abbr,
                         provenance_doc={"paragraphs": [para]}))
        elif "Gapminder region cluster" in lead:
            cl = lead.split("region cluster ")[1].split(" ")[0]
            out.append(q(f"d-cluster-{title}", f"Which Gapminder world region cluster is {para['wikipedia_title']} assigned to?", cl,
                         provenance_doc={"paragraphs": [para]}))
    R.shuffle(out)
    return out[:40]


def source_questions(gq, tq, dq, start, n):
    """Source labels: each question keeps the source its answer was read from. The doc questions are about the
    lake's own pages (the demo's Wikipedia pages built beside the NBA lake), so every label names a source
    the lake really holds. Two disjoint sets: q_source.json (reported) and q_source_dev.json (threshold
    tuning for the lexical router)."""
    out = []
    for src, qs in (("graph", gq), ("table", tq), ("doc", dq)):
        for x in qs[start:start + n]:
            out.append({"qid": "s-" + x["qid"], "original_source": src, "question": x["question"],
                        "answer": x["answer"], "provenance_sources": [src]})
    R.shuffle(out)
    return out


def main():
    nba, wiki, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    gq = graph_questions(os.path.join(nba, "graph"))
    tq = table_questions(nba)
    dq = doc_questions(wiki)
    sq = source_questions(gq, tq, dq, 0, 16)
    sd = source_questions(gq, tq, dq, 16, 8)
    for name, data in [("q_graph.json", gq), ("q_table.json", tq), ("q_doc.json", dq), ("q_source.json", sq),
                       ("q_source_dev.json", sd)]:
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(name, len(data))


if __name__ == "__main__":
    main()
