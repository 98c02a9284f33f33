#!/usr/bin/python3
"""Writes the demo tasks (LakeQA format) to demo/tasks/k-<hops>-d-<in-degree>/task_<n>.json. Every node's
fact is Python that reads `local_path` (the downloaded lake file) and sets `answer`; this script runs each
fact against the built demo lake to fill the node answers, so facts and answers cannot drift.
Usage: make_tasks.py <lake root> <out folder>"""
import json, os, re, sys

LAKE, OUT = sys.argv[1], sys.argv[2]

def run_fact(source, code):
    env = {"local_path": os.path.join(LAKE, source)}
    exec(code, env)
    return str(env["answer"])

def wiki(title): return "wikipedia/%s/content.txt" % title.replace(" ", "_")
D = {"airports": "datagov/airports/files/rows.txt", "zip": "datagov/us-zip-codes/files/rows.txt",
     "caps": "datagov/us-state-capitals/files/us-state-capitals.json",
     "sea": "datagov/seattle-weather/files/rows.txt", "dis": "datagov/natural-disasters-deaths/files/rows.txt",
     "gap": "datagov/gapminder-health-and-population/files/gapminder.json",
     "co2": "datagov/co2-concentration-mauna-loa/files/rows.txt",
     "eq": "datagov/usgs-earthquakes-past-week/files/earthquakes.geojson",
     "temp": "datagov/global-temperature-anomalies/files/rows.txt",
     "iowa": "datagov/iowa-electricity-generation/files/rows.txt"}

F_CAPITAL = "import re\ntext = open(local_path).read()\nanswer = re.search(r'The state capital is ([^,]+),', text).group(1)\n"
F_CODE = "import re\ntext = open(local_path).read()\nanswer = re.search(r'postal abbreviation is ([A-Z]{2})\\.', text).group(1)\n"
F_CLUSTER = "import re\ntext = open(local_path).read()\nanswer = re.search(r'region cluster (\\d+)', text).group(1)\n"

tasks = []  # (k, d, dict)
def task(question, nodes, hops, final):
    """nodes: list of (source, fact, subquestion); hops: list of (node ids, reasoning, answer-fn or None)."""
    nd, answers = {}, {}
    for i, (src, fact, sq) in enumerate(nodes, 1):
        a = run_fact(src, fact)
        answers[i] = a
        nd[str(i)] = {"source": src, "fact": fact, "subquestion": sq, "answer": a}
    rh = []
    for h, (ids, why, fn) in enumerate(hops, 1):
        ans = fn(answers) if fn else answers[ids[-1]]
        rh.append({"hop": h, "node_ids": ids, "reasoning": [why, "Hop result: %s" % ans], "answer": ans})
    answer = rh[-1]["answer"]
    used = []
    for s, _, _ in nodes:
        if s not in used: used.append(s)
    indeg = max(len(ids) for ids, _, _ in hops)
    tasks.append((len(hops), indeg, {"question_id": "", "question": question + " Your response should be in the format [Answer].",
                  "answer": answer, "nodes": nd, "datasets_used": used, "reasoning_hops": rh}))

def sub(_tmpl, **kw):
    for k, v in kw.items(): _tmpl = _tmpl.replace("{%s}" % k, repr(v))
    return _tmpl

# --- 1 hop -------------------------------------------------------------------------------------------
for st in ["Texas", "Oregon", "Vermont"]:
    task("What is the capital city of the US state of %s?" % st,
         [(wiki(st), F_CAPITAL, "What is the state capital of %s?" % st)],
         [([1], "Node 1: the %s page names the capital." % st, None)], None)
for y in [2012, 2013, 2014]:
    task("According to the Seattle weather records, on how many days in %d was the weather recorded as snow?" % y,
         [(D["sea"], sub("import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int(((df['date'].str.startswith(str({y}))) & (df['weather'] == 'snow')).sum()))\n", y=y),
           "How many %d days in the Seattle weather table have weather 'snow'?" % y)],
         [([1], "Node 1: count 'snow' rows of %d." % y, None)], None)
for y in [1975, 2000]:
    task("In the Mauna Loa CO2 concentration records, on which monthly date (YYYY-MM-DD) of %d was the CO2 concentration highest?" % y,
         [(D["co2"], sub("import pandas as pd\ndf = pd.read_csv(local_path)\nd = df[df['Date'].str.startswith(str({y}))]\nanswer = d.loc[d['CO2'].idxmax(), 'Date']\n", y=y),
           "Which date of %d has the highest CO2 value?" % y)],
         [([1], "Node 1: the row of %d with the largest CO2." % y, None)], None)
task("In the USGS past-week earthquake feed, in which country or region (the last part of the place description) was the strongest earthquake?",
     [(D["eq"], "import json\nfc = json.load(open(local_path))\nbest = max(fc['features'], key=lambda f: f['properties']['mag'] or 0)\nanswer = best['properties']['place'].split(', ')[-1]\n",
       "In which country or region was the largest-magnitude earthquake of the feed?")],
     [([1], "Node 1: the feature with the largest mag.", None)], None)
task("In the natural disasters deaths table, in which year did drought cause the most deaths?",
     [(D["dis"], "import pandas as pd\ndf = pd.read_csv(local_path)\nd = df[df['Entity'] == 'Drought']\nanswer = str(int(d.loc[d['Deaths'].idxmax(), 'Year']))\n",
       "Which year has the most drought deaths?")],
     [([1], "Node 1: the Drought row with the largest Deaths.", None)], None)

# --- 2 hops: state page -> airports in the capital ------------------------------------------------------
F_AIR_CITY = "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int(((df['city'] == {city}) & (df['state'] == {code})).sum()))\n"
for st in ["Texas", "Georgia", "Arizona", "Colorado"]:
    text = open(os.path.join(LAKE, wiki(st))).read()
    cap = re.search(r"The state capital is ([^,]+),", text).group(1)
    code = re.search(r"postal abbreviation is ([A-Z]{2})", text).group(1)
    task("How many airports does the airports table list in the capital city of %s?" % st,
         [(wiki(st), F_CAPITAL + F_CODE.replace("answer =", "code ="), "What is the capital of %s?" % st),
          (D["airports"], sub(F_AIR_CITY, city=cap, code=code), "How many airports are in <node_1 answer>, %s?" % code)],
         [([1], "Node 1: the capital from the state page.", None), ([2], "Node 2: count airports with that city and state code.", None)], None)
# --- 2 hops: country page -> cluster -> highest life expectancy in 2005 ------------------------------
F_GAP_TOP = "import json\nrows = json.load(open(local_path))\nr = [x for x in rows if x['cluster'] == int({cl}) and x['year'] == 2005]\nanswer = max(r, key=lambda x: x['life_expect'])['country']\n"
F_GAP_AVG = "import json\nrows = json.load(open(local_path))\nr = [x['life_expect'] for x in rows if x['cluster'] == int({cl}) and x['year'] == 2005]\nanswer = '%.1f' % (sum(r) / len(r))\n"
for c in ["Kenya", "Peru", "Turkey"]:
    cl = run_fact(wiki(c), F_CLUSTER)
    task("Among the countries in the same Gapminder region cluster as %s, which had the highest life expectancy in 2005?" % c,
         [(wiki(c), F_CLUSTER, "Which Gapminder region cluster is %s in?" % c),
          (D["gap"], sub(F_GAP_TOP, cl=cl), "Which country of cluster <node_1 answer> had the highest life_expect in 2005?")],
         [([1], "Node 1: cluster from the page.", None), ([2], "Node 2: max life_expect in 2005 within the cluster.", None)], None)
for c in ["India", "Japan", "Egypt"]:
    cl = run_fact(wiki(c), F_CLUSTER)
    task("What was the average 2005 life expectancy, rounded to one decimal, of the countries in the same Gapminder region cluster as %s?" % c,
         [(wiki(c), F_CLUSTER, "Which Gapminder region cluster is %s in?" % c),
          (D["gap"], sub(F_GAP_AVG, cl=cl), "Mean life_expect in 2005 over cluster <node_1 answer>?")],
         [([1], "Node 1: cluster from the page.", None), ([2], "Node 2: mean of life_expect in 2005 within the cluster.", None)], None)

# --- 3 to 6 hops: state page -> city with most airports -> county -> zip codes -> ... --------------------
F_TOP_CITY = "import pandas as pd\ndf = pd.read_csv(local_path)\nd = df[df['state'] == {code}]\nc = d['city'].value_counts()\nanswer = sorted(c[c == c.max()].index)[0]\n"
F_ZIP_CITY = "import pandas as pd\ndf = pd.read_csv(local_path, dtype=str)\nanswer = str(int(((df['city'] == {city}) & (df['state'] == {code})).sum()))\n"
F_COUNTY = "import pandas as pd\ndf = pd.read_csv(local_path, dtype=str)\nd = df[(df['city'] == {city}) & (df['state'] == {code})]\nc = d['county'].value_counts()\nanswer = sorted(c[c == c.max()].index)[0]\n"
F_ZIP_COUNTY = "import pandas as pd\ndf = pd.read_csv(local_path, dtype=str)\nanswer = str(int(((df['county'] == {county}) & (df['state'] == {code})).sum()))\n"
F_AIR_STATE = "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int((df['state'] == {code}).sum()))\n"
F_CAP_LAT = "import json\nrows = json.load(open(local_path))\nanswer = str(int(round([r for r in rows if r['state'] == {st}][0]['lat'])))\n"

def chain(st, k):
    code = run_fact(wiki(st), F_CODE)
    city = run_fact(D["airports"], sub(F_TOP_CITY, code=code))
    county = run_fact(D["zip"], sub(F_COUNTY, city=city, code=code))
    nodes = [(wiki(st), F_CODE, "What is the postal abbreviation of %s?" % st),
             (D["airports"], sub(F_TOP_CITY, code=code), "Which city in state <node_1 answer> has the most airports?")]
    hops = [([1], "Node 1: the abbreviation from the state page.", None),
            ([2], "Node 2: the city with the most airports in that state (ties: alphabetically first).", None)]
    if k == 3:
        nodes.append((D["zip"], sub(F_ZIP_CITY, city=city, code=code), "How many zip codes does <node_2 answer>, <node_1 answer> have?"))
        hops.append(([3], "Node 3: count zip codes of that city and state.", None))
        return ("How many zip codes does the zip code table list for the %s city that has the most airports in the airports table?" % st, nodes, hops)
    nodes.append((D["zip"], sub(F_COUNTY, city=city, code=code), "In which county is <node_2 answer>, <node_1 answer>?"))
    nodes.append((D["zip"], sub(F_ZIP_COUNTY, county=county, code=code), "How many zip codes are in <node_3 answer> county, <node_1 answer>?"))
    hops.append(([3], "Node 3: the most common county of that city's zip codes.", None))
    hops.append(([4], "Node 4: count zip codes in that county and state.", None))
    q = "Take the %s city with the most airports in the airports table and its county in the zip code table: how many zip codes does that county have" % st
    if k == 4: return (q + "?", nodes, hops)
    nodes.append((D["airports"], sub(F_AIR_STATE, code=code), "How many airports does state <node_1 answer> have?"))
    hops[-1] = ([4, 5], "Node 4: count zip codes in that county and state. Node 5: count the state's airports; add the two.",
                lambda a: str(int(a[4]) + int(a[5])))
    nodes.append((D["caps"], sub(F_CAP_LAT, st=st), "What is the latitude of the capital of %s, rounded to an integer?" % st))
    hops.append(([6], "Node 6: the capital's latitude rounded; add it to the previous hop's sum.", lambda a: str(int(a[4]) + int(a[5]) + int(a[6]))))
    q5 = q + ", plus the number of airports the airports table lists in %s, plus the latitude of the %s state capital rounded to an integer?" % (st, st)
    if k == 5: return (q5, nodes, hops)
    capcity = run_fact(wiki(st), F_CAPITAL)
    nodes.append((D["airports"], sub(F_AIR_CITY, city=capcity, code=code), "How many airports does the capital of %s have?" % st))
    hops.append(([7], "Node 7: airports in the state capital city; add them to the previous hop's total.",
                 lambda a: str(int(a[4]) + int(a[5]) + int(a[6]) + int(a[7]))))
    return (q5[:-1] + ", plus the number of airports in that capital city?", nodes, hops)

for k, states in [(3, ["Ohio", "Kansas", "Florida", "Montana"]), (4, ["Iowa", "Nebraska", "Illinois"]),
                  (5, ["Texas", "Michigan", "Oklahoma"]), (6, ["California", "Minnesota", "Wisconsin"])]:
    for st in states:
        q, nodes, hops = chain(st, k)
        task(q, nodes, hops, None)

counter = {}
for n, (k, d, t) in enumerate(tasks, 1):
    t["question_id"] = "DEMO%03d" % n
    folder = os.path.join(OUT, "k-%d-d-%d" % (k, d))
    os.makedirs(folder, exist_ok=True)
    counter[folder] = counter.get(folder, 0) + 1
    json.dump(t, open(os.path.join(folder, "task_%d.json" % counter[folder]), "w"), indent=2, ensure_ascii=False)
print("wrote %d tasks to %s" % (len(tasks), OUT))
for k, d, t in tasks: print(t["question_id"], k, d, repr(t["answer"]))
