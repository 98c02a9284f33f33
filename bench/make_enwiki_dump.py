#!/usr/bin/env python3
"""Writes a synthetic English-Wikipedia dump in the real format for the lake-build benchmark:
<name>-pages-articles-multistream.xml.bz2 (the MediaWiki export schema 0.11, one bz2 stream per 100
pages after a header stream, exactly as the Wikimedia dumps are cut) and its index
<name>-pages-articles-multistream-index.txt.bz2 ("offset:page_id:title" lines).

Page text is wikitext with the constructs the converter has to handle (templates, infoboxes, refs,
links, files, categories, headings, lists, tables) over a Zipf-distributed vocabulary, so that bz2
compresses it about as well as real articles (real enwiki: ~4.3x). About 5% of pages are redirects and
3% are in other namespaces, as in the real dump. Deterministic for a given seed.

Usage: make_enwiki_dump.py <out-dir> <target-compressed-MB> [seed]
"""
import bz2
import os
import random
import sys
from xml.sax.saxutils import escape

PAGES_PER_STREAM = 100


def make_vocab(rng, n=40000):
    consonants = "bcdfghjklmnprstvwz"
    vowels = "aeiou"
    words = set()
    while len(words) < n:
        k = rng.choice((1, 2, 2, 3, 3, 4))
        w = "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(k))
        if rng.random() < 0.3:
            w += rng.choice(consonants)
        words.add(w)
    words = sorted(words)
    rng.shuffle(words)
    weights = [1.0 / (i + 1) for i in range(n)]  # Zipf, s = 1
    return words, weights


class Text:
    def __init__(self, rng, words, weights):
        self.rng = rng
        self.words = words
        self.cum = []
        total = 0.0
        for w in weights:
            total += w
            self.cum.append(total)
        self.total = total
        self.pool = rng.choices(words, cum_weights=self.cum, k=200000)
        self.pos = 0

    def word(self):
        self.pos = (self.pos + 1) % len(self.pool)
        if self.pos == 0:
            self.rng.shuffle(self.pool)
        return self.pool[self.pos]

    def sentence(self, titles):
        n = self.rng.randint(8, 24)
        out = []
        for i in range(n):
            r = self.rng.random()
            if r < 0.06 and titles:
                t = self.rng.choice(titles)
                out.append(f"[[{t}]]" if self.rng.random() < 0.5 else f"[[{t}|{self.word()} {self.word()}]]")
            elif r < 0.08:
                out.append(str(self.rng.randint(1800, 2024)))
            elif r < 0.10:
                out.append(f"'''{self.word()}'''")
            else:
                out.append(self.word())
        s = " ".join(out)
        s = s[0].upper() + s[1:] + "."
        if self.rng.random() < 0.3:
            s += f"<ref>{{{{cite web |url=https://example.org/{self.word()} |title={self.word()} {self.word()} |date={self.rng.randint(1990, 2024)}}}}}</ref>"
        return s


def page_text(tx, title, titles):
    rng = tx.rng
    parts = ["{{Short description|" + " ".join(tx.word() for _ in range(5)) + "}}"]
    parts.append("{{Infobox settlement\n| name = " + title + "\n| population = " + str(rng.randint(100, 9999999))
                 + "\n| area_km2 = " + str(rng.randint(1, 9999)) + "\n| established = " + str(rng.randint(1700, 2000))
                 + "\n}}")
    parts.append(" ".join(tx.sentence(titles) for _ in range(rng.randint(2, 5))))
    for _ in range(rng.randint(1, 6)):
        parts.append("== " + tx.word().capitalize() + " " + tx.word() + " ==")
        for _ in range(rng.randint(1, 3)):
            parts.append(" ".join(tx.sentence(titles) for _ in range(rng.randint(2, 7))))
        r = rng.random()
        if r < 0.3:
            parts.append("\n".join("* " + tx.sentence(titles) for _ in range(rng.randint(2, 6))))
        elif r < 0.45:
            rows = ["{| class=\"wikitable\"", "! Year !! " + tx.word() + " !! " + tx.word()]
            for _ in range(rng.randint(2, 8)):
                rows.append("|-")
                rows.append(f"| {rng.randint(1900, 2024)} || {rng.randint(0, 99999)} || {tx.word()}")
            rows.append("|}")
            parts.append("\n".join(rows))
        elif r < 0.55:
            parts.append(f"[[File:{tx.word()}.jpg|thumb|{tx.word()} {tx.word()} [[{rng.choice(titles)}]]]]")
    parts.append("== References ==\n{{Reflist}}")
    for _ in range(rng.randint(1, 4)):
        parts.append(f"[[Category:{tx.word().capitalize()} {tx.word()}]]")
    return "\n\n".join(parts)


def page_xml(title, ns, pid, text, redirect=None):
    red = f'    <redirect title="{escape(redirect)}" />\n' if redirect else ""
    return (f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n    <id>{pid}</id>\n{red}"
            f"    <revision>\n      <id>{pid * 7 + 1}</id>\n      <parentid>{pid * 7}</parentid>\n"
            f"      <timestamp>2024-06-01T00:00:00Z</timestamp>\n      <contributor>\n        <username>Bench</username>\n"
            f"        <id>1</id>\n      </contributor>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
            f"      <text bytes=\"{len(text.encode())}\" xml:space=\"preserve\">{escape(text)}</text>\n"
            f"      <sha1>0</sha1>\n    </revision>\n  </page>\n")


HEADER = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
    <generator>MediaWiki 1.43</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="4" case="first-letter">Wikipedia</namespace>
    </namespaces>
  </siteinfo>
"""


def main():
    out_dir, target_mb = sys.argv[1], float(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    words, weights = make_vocab(rng)
    tx = Text(rng, words, weights)
    os.makedirs(out_dir, exist_ok=True)
    dump = os.path.join(out_dir, "benchwiki-pages-articles-multistream.xml.bz2")
    index = os.path.join(out_dir, "benchwiki-pages-articles-multistream-index.txt.bz2")
    target = int(target_mb * 1e6)
    titles = []
    pid = 10
    index_lines = []
    with open(dump, "wb") as f:
        f.write(bz2.compress(HEADER.encode(), 9))
        while f.tell() < target:
            offset = f.tell()
            buf = []
            for _ in range(PAGES_PER_STREAM):
                pid += 1
                r = rng.random()
                title = " ".join(tx.word().capitalize() for _ in range(rng.randint(1, 3))) + f" {pid}"
                if r < 0.05 and titles:
                    buf.append(page_xml(title, 0, pid, "#REDIRECT [[" + rng.choice(titles) + "]]",
                                        redirect=rng.choice(titles)))
                elif r < 0.08:
                    buf.append(page_xml("Talk:" + title, 1, pid, tx.sentence(titles)))
                    title = "Talk:" + title
                else:
                    titles.append(title)
                    if len(titles) > 5000:
                        titles = titles[-5000:]
                    buf.append(page_xml(title, 0, pid, page_text(tx, title, titles)))
                index_lines.append(f"{offset}:{pid}:{title}\n")
            f.write(bz2.compress("".join(buf).encode(), 9))
        f.write(bz2.compress(b"</mediawiki>\n", 9))
    with open(index, "wb") as f:
        f.write(bz2.compress("".join(index_lines).encode(), 9))
    print(dump)


if __name__ == "__main__":
    main()
