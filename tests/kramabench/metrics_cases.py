# The expected values of tests/kramabench/kramabench_test.cc (KramaBenchMetrics.*FromPython): KramaBench's own
# benchmark/metrics.py run on each case, after the str()/strip() cast its Evaluator applies. Needs only the
# standard library: nltk, rouge_score and the LLM client are imported at the top of metrics.py but used by
# none of the metrics here, so stand-ins let the module load. Run with a KramaBench checkout:
#   /usr/bin/python3 tests/kramabench/metrics_cases.py /path/to/Kramabench
import sys, types, json
# metrics.py imports nltk, rouge_score and the LLM tools at the top; the metrics computed here use none of
# them, so stand-ins let the real module load.
for name in ["nltk", "rouge_score", "rouge_score.rouge_scorer", "benchmark", "benchmark.llm_tools"]:
    sys.modules[name] = types.ModuleType(name)
sys.modules["rouge_score"].rouge_scorer = sys.modules["rouge_score.rouge_scorer"]
class GPT:
    def __init__(self, *a, **k): pass
    def evaluate_paraphrase(self, *a): raise RuntimeError("no LLM here")
sys.modules["benchmark.llm_tools"].GPTInterface = GPT
sys.modules["benchmark.llm_tools"].LLMInterface = GPT
sys.modules["benchmark.llm_tools"].OllamaInterface = GPT
sys.path.insert(0, sys.argv[1] + "/benchmark")
import metrics as M
cases = [
 ("success", 13427.5676, "13427.5676"), ("success", 5, "5.0"), ("success", "  Rome ", "rome"), ("success", 0.5, "50%"),
 ("success", [2001, 2002], "[2001, 2002]"), ("success", True, "true"), ("success", None, "None"), ("success", 1e-05, "1e-05"),
 ("mean_absolute_error", 10.0, "12"), ("mean_absolute_error", 0.25, "30%"), ("mean_absolute_error", 3, "abc"),
 ("mean_absolute_error", 1000, "1_000.5"), ("mean_squared_error", 2.5, " 4 "), ("mean_squared_error", 2.5, "x"),
 ("mean_relative_absolute_error", 10.0, "12"), ("mean_relative_absolute_error", 0, "3"), ("mean_relative_absolute_error", 4, "n/a"),
 ("mean_relative_absolute_error", -2.0, "-2.5"), ("mean_relative_absolute_error", 0.1, "10 %"),
 ("f1", ["Boston", "Salem"], "['Boston', 'Salem']"), ("f1", ["Boston", "Salem"], "Boston, Salem"), ("f1", [1, 2, 3], "[3, 2, 1]"),
 ("f1", ["a b"], ""), ("f1", "", ""), ("f1", ["x"], "[]"),
 ("f1_approximate", [0.0193, -0.002], "[0.0193, -0.002]"), ("f1_approximate", [0.0193, -0.002], "[1.0, 2.0]"),
 ("f1_approximate", [1.0, 2.0], "[100, 200]"), ("f1_approximate", [0, 1], "[5]"), ("f1_approximate", [1.5], "7"),
 ("f1_approximate", [1.5], "(30, 40)"), ("f1_approximate", [1.5], "oops"), ("f1_approximate", [], "[]"),
]
out = []
for metric, target, predicted in cases:
    # Evaluator.evaluate_response_with_metric: both sides through str() and strip()
    t = str(target).strip(); p = str(predicted).strip()
    v = M.metric_factory(metric)(predicted=p, target=t)
    out.append({"metric": metric, "target": target, "predicted": predicted, "target_str": t, "value": v})
print(json.dumps(out, indent=None))
reprs = [13427.5676, 1e-05, 0.0001, 1e16, 1234567890123456.0, 1.0, -0.0, 7.95e-13, 66822738.84, 2.5e+300, 100.0, 0.1 + 0.2]
print(json.dumps([[r, str(r)] for r in reprs]))
print(json.dumps([[x, str(x)] for x in [[1, "a", 2.5, None, True], ["it's", 'say "hi"', "tab\there", "back\\slash", "é\xa0"], {"k": [1, {"n": None}]}]]))
