#!/usr/bin/python3
"""Converts the npm package vega-datasets (unpacked under <src>/vega) into the demo lake's raw sources:
<out>/datagov/<name>.json (CKAN package_show-style records) + <out>/datagov/<name>/<files>, and
<out>/wikipedia/<Title>/content.txt pages written from the entity data (US states, countries).
Build with: lakeqa lake build --source datagov:<out>/datagov --out LAKE
            lakeqa lake build --source dir:<out>/wikipedia --namespace wikipedia --out LAKE
Standard library only. Usage: make_demo_source.py <src> <out>"""
import csv, html, json, os, shutil, sys
from collections import Counter, defaultdict

src, out = sys.argv[1], sys.argv[2]
vega = os.path.join(src, "vega")
pkg = json.load(open(os.path.join(vega, "package.json")))
dp = json.load(open(os.path.join(vega, "datapackage.json")))
res = {r["name"]: r for r in dp["resources"]}
VERSION = pkg["version"]

# dataset name in the lake -> (vega resource, file name in the dataset, theme tags)
DATASETS = {
    "airports": ("airports", "rows.txt", ["transportation", "aviation"]),
    "us-zip-codes": ("zipcodes", "rows.txt", ["geography", "postal"]),
    "us-state-capitals": ("us_state_capitals", "us-state-capitals.json", ["geography", "government"]),
    "seattle-weather": ("seattle_weather", "rows.txt", ["climate", "weather"]),
    "natural-disasters-deaths": ("disasters", "rows.txt", ["disasters", "public-safety"]),
    "gapminder-health-and-population": ("gapminder", "gapminder.json", ["health", "population"]),
    "co2-concentration-mauna-loa": ("co2_concentration", "rows.txt", ["climate", "environment"]),
    "usgs-earthquakes-past-week": ("earthquakes", "earthquakes.geojson", ["geology", "hazards"]),
    "global-temperature-anomalies": ("global_temp", "rows.txt", ["climate"]),
    "iowa-electricity-generation": ("iowa_electricity", "rows.txt", ["energy"]),
    "us-employment": ("us_employment", "rows.txt", ["economy", "labor"]),
    "palmer-penguins": ("penguins", "penguins.json", ["biology"]),
}
ORG = {"name": "vega-datasets", "title": "Vega Datasets (vega/vega-datasets on npm, v%s)" % VERSION}

def lic(r):
    ls = r.get("licenses") or dp["licenses"]
    return "; ".join(l.get("title") or l.get("name") for l in ls), (ls[0].get("path") or "")

def write_record(name, title, notes, tags, license_title, license_url, sources, files):
    d = os.path.join(out, "datagov", name)
    os.makedirs(d, exist_ok=True)
    for fname, content_or_path in files:
        dst = os.path.join(d, fname)
        if isinstance(content_or_path, str) and os.path.exists(content_or_path):
            shutil.copyfile(content_or_path, dst)
        else:
            open(dst, "w").write(content_or_path.decode() if isinstance(content_or_path, bytes) else content_or_path)
    rec = {"name": name, "title": title, "notes": notes, "organization": ORG,
           "tags": [{"name": t} for t in tags], "license_title": license_title, "license_url": license_url,
           "url": sources[0]["path"] if sources else "",
           "extras": [{"key": "source", "value": "; ".join("%s <%s>" % (s.get("title"), s.get("path")) for s in sources)},
                      {"key": "distributed_by", "value": "npm package vega-datasets@%s (BSD-3-Clause packaging)" % VERSION}],
           "resources": [{"name": f, "url": f} for f, _ in files]}
    json.dump(rec, open(os.path.join(out, "datagov", name + ".json"), "w"), indent=1)

os.makedirs(os.path.join(out, "datagov"), exist_ok=True)
catalog_rows = []
for name, (rname, fname, tags) in DATASETS.items():
    r = res[rname]
    lt, lu = lic(r)
    title = r.get("title") or name.replace("-", " ").title()
    write_record(name, title, r.get("description", "").strip(), tags, lt, lu, r.get("sources", []),
                 [(fname, os.path.join(vega, "data", r["path"]))])
    catalog_rows.append((name, title, r.get("description", "").strip().split("\n")[0], lt))

# One HTML document: the catalog of the demo's datasets (becomes catalog.txt in the lake).
page = ["<html><head><title>Vega datasets catalog</title></head><body><h1>Vega datasets catalog</h1>",
        "<p>Datasets of the npm package vega-datasets %s, as used in the lakeqa demo lake.</p><table>" % VERSION,
        "<tr><th>dataset</th><th>title</th><th>description</th><th>license</th></tr>"]
for row in catalog_rows:
    page.append("<tr>" + "".join("<td>%s</td>" % html.escape(c) for c in row) + "</tr>")
page.append("</table></body></html>")
write_record("vega-datasets-catalog", "Vega datasets catalog", dp["description"].strip(), ["catalog"],
             "The 3-Clause BSD License", "https://opensource.org/license/bsd-3-clause",
             [{"title": "vega-datasets", "path": "https://github.com/vega/vega-datasets"}],
             [("catalog.html", "\n".join(page))])

# Wikipedia-style pages written from the entity data.
STATES = {"Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA", "Colorado": "CO",
 "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL",
 "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD",
 "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS", "Missouri": "MO", "Montana": "MT",
 "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY",
 "North Carolina": "NC", "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
 "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN", "Texas": "TX", "Utah": "UT",
 "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY"}
wiki = os.path.join(out, "wikipedia")
def page_out(title, text):
    d = os.path.join(wiki, title.replace(" ", "_"))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "content.txt"), "w").write(text)
caps = json.load(open(os.path.join(vega, "data", "us-state-capitals.json")))
for c in caps:
    st = c["state"]
    if st not in STATES: continue
    page_out(st, "%s\n\n%s is a state of the United States of America. Its postal abbreviation is %s. "
             "The state capital is %s, located at latitude %.4f and longitude %.4f.\n\n"
             "Source: written for the lakeqa demo from vega-datasets (us-state-capitals.json).\n"
             % (st, st, STATES[st], c["city"], c["lat"], c["lon"]))
REGIONS = {0: "South Asia", 1: "Europe and Central Asia", 2: "Sub-Saharan Africa", 3: "America",
           4: "East Asia and Pacific", 5: "Middle East and North Africa"}
gm = json.load(open(os.path.join(vega, "data", "gapminder.json")))
by = defaultdict(list)
for r in gm: by[r["country"]].append(r)
for country, rows in by.items():
    rows.sort(key=lambda r: r["year"])
    cl = rows[0]["cluster"]
    page_out(country + " (country)" if country in STATES else country, "%s\n\n%s is a country assigned to Gapminder region cluster %d (one of Gapminder's six world regions). "
             "Gapminder records for %s span %d to %d.\n\n"
             "Source: written for the lakeqa demo from vega-datasets (gapminder.json, Gapminder Foundation, CC BY 4.0).\n"
             % (country, country, cl, country, rows[0]["year"], rows[-1]["year"]))
print("demo source written to", out)
