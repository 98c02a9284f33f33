// Lucene as the yardstick for lakeqa's search (issue 25): the same documents, fields and field weights,
// ranked by Lucene 8's BM25Similarity (per-field b, one k1) over EnglishAnalyzer tokens. A query ORs, for
// every query term and every text field, a TermQuery boosted by the field's weight: the per-field BM25
// sum ("most_fields") that a Lucene user would write. Built and run by bench/relevance_engines.py and
// bench/search_engines.sh with Debian's JDK and liblucene8-java (jars in /usr/share/java).
//
//   java LuceneBench rank  PARAMS DOCS QUERIES OUT K
//       QUERIES: qid \t text lines; OUT: qid \t rank \t id \t score lines (ties by id, as lakeqa orders them)
//   java LuceneBench speed PARAMS DOCS QUERIES DIR PREFIX CORPUS_NAME
//       QUERIES: terms \t space-separated words; writes PREFIX.json and PREFIX.top10 as bench_search_engines
//
// PARAMS: "k1 \t value" and "field \t name \t weight \t b" lines (the index manifest's ranking). DOCS: one
// document per line, "id \t field \t value \t field \t value ..." (a field may repeat: multi-valued).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.PerFieldSimilarityWrapper;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

public final class LuceneBench {
  static final class Params {
    float k1 = 1.2f;
    final Map<String, float[]> fields = new LinkedHashMap<>();  // name -> {weight, b}
  }

  static Params readParams(String path) throws IOException {
    Params p = new Params();
    for (String line : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
      String[] f = line.split("\t");
      if (f[0].equals("k1")) p.k1 = Float.parseFloat(f[1]);
      else if (f[0].equals("field")) p.fields.put(f[1], new float[] {Float.parseFloat(f[2]), Float.parseFloat(f[3])});
    }
    if (p.fields.isEmpty()) throw new IOException(path + ": no field lines");
    return p;
  }

  static Similarity similarity(Params p) {
    Map<String, Similarity> per = new HashMap<>();
    for (Map.Entry<String, float[]> e : p.fields.entrySet()) per.put(e.getKey(), new BM25Similarity(p.k1, e.getValue()[1]));
    Similarity fallback = new BM25Similarity(p.k1, 0.75f);
    return new PerFieldSimilarityWrapper() {
      @Override
      public Similarity get(String name) {
        return per.getOrDefault(name, fallback);
      }
    };
  }

  // Reads DOCS into the writer; returns {documents, text bytes, seconds spent reading and parsing}.
  static double[] index(IndexWriter w, Params p, String docs) throws IOException {
    long n = 0, bytes = 0, parseNs = 0;
    try (BufferedReader in = Files.newBufferedReader(Paths.get(docs), StandardCharsets.UTF_8)) {
      for (;;) {
        long t = System.nanoTime();
        String line = in.readLine();
        if (line == null) break;
        String[] f = line.split("\t", -1);
        Document d = new Document();
        d.add(new StringField("id", f[0], Field.Store.YES));
        for (int i = 1; i + 1 < f.length; i += 2) {
          bytes += f[i + 1].length();
          if (p.fields.containsKey(f[i])) d.add(new TextField(f[i], f[i + 1], Field.Store.NO));
        }
        parseNs += System.nanoTime() - t;
        w.addDocument(d);
        ++n;
      }
    }
    return new double[] {n, bytes, parseNs / 1e9};
  }

  static List<String> analyze(Analyzer a, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = a.tokenStream("", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        String t = term.toString();
        if (!out.contains(t)) out.add(t);
      }
      ts.end();
    }
    return out;
  }

  static Query query(Params p, List<String> terms) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String t : terms)
      for (Map.Entry<String, float[]> e : p.fields.entrySet())
        b.add(new BoostQuery(new TermQuery(new Term(e.getKey(), t)), e.getValue()[0]), BooleanClause.Occur.SHOULD);
    return b.build();
  }

  static void rank(String[] a) throws IOException {
    Params p = readParams(a[1]);
    int k = Integer.parseInt(a[5]);
    Analyzer an = new EnglishAnalyzer();
    Path dir = Files.createTempDirectory("lucene-rank");
    try (Directory d = FSDirectory.open(dir)) {
      IndexWriterConfig c = new IndexWriterConfig(an).setSimilarity(similarity(p));
      try (IndexWriter w = new IndexWriter(d, c)) {
        index(w, p, a[2]);
      }
      try (DirectoryReader r = DirectoryReader.open(d);
           PrintWriter out = new PrintWriter(Files.newBufferedWriter(Paths.get(a[4]), StandardCharsets.UTF_8))) {
        IndexSearcher s = new IndexSearcher(r);
        s.setSimilarity(similarity(p));
        for (String line : Files.readAllLines(Paths.get(a[3]), StandardCharsets.UTF_8)) {
          String[] q = line.split("\t", 2);
          List<String> terms = analyze(an, q.length > 1 ? q[1] : "");
          if (terms.isEmpty()) continue;
          // Deeper than k, then equal scores ordered by id: the tie rule of lakeqa and of the other engines here.
          TopDocs top = s.search(query(p, terms), Math.max(k, 50));
          List<Object[]> hits = new ArrayList<>();
          for (ScoreDoc sd : top.scoreDocs) hits.add(new Object[] {sd.score, s.doc(sd.doc).get("id")});
          hits.sort((x, y) -> {
            int c1 = Float.compare((Float) y[0], (Float) x[0]);
            return c1 != 0 ? c1 : ((String) x[1]).compareTo((String) y[1]);
          });
          for (int i = 0; i < Math.min(k, hits.size()); ++i)
            out.printf(Locale.ROOT, "%s\t%d\t%s\t%.6f%n", q[0], i + 1, hits.get(i)[1], (Float) hits.get(i)[0]);
        }
      }
    } finally {
      try (Stream<Path> w = Files.walk(dir)) {
        w.sorted((x, y) -> y.compareTo(x)).forEach(x -> x.toFile().delete());
      }
    }
  }

  static double percentile(double[] v, double q) {
    if (v.length == 0) return 0;
    double[] s = v.clone();
    Arrays.sort(s);
    int i = (int) Math.ceil(q * s.length) - 1;
    return s[Math.max(0, Math.min(i, s.length - 1))];
  }

  static long dirBytes(Path dir) throws IOException {
    try (Stream<Path> w = Files.walk(dir)) {
      return w.filter(Files::isRegularFile).mapToLong(x -> x.toFile().length()).sum();
    }
  }

  static long peakRssKb() throws IOException {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status")))
      if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
    return 0;
  }

  static void speed(String[] a) throws IOException {
    Params p = readParams(a[1]);
    Path dir = Paths.get(a[4]);
    String prefix = a[5], corpus = a[6];
    Analyzer an = new EnglishAnalyzer();
    Map<Integer, List<List<String>>> byTerms = new java.util.TreeMap<>();
    for (String line : Files.readAllLines(Paths.get(a[3]), StandardCharsets.UTF_8)) {
      String[] q = line.split("\t", 2);
      byTerms.computeIfAbsent(Integer.parseInt(q[0]), x -> new ArrayList<>()).add(Arrays.asList(q[1].split(" ")));
    }
    long t0 = System.nanoTime();
    double[] info;
    try (Directory d = FSDirectory.open(dir)) {
      // A RAM buffer as large as lakeqa's default segment: fewer flushes and merges, Lucene at its best.
      IndexWriterConfig c = new IndexWriterConfig(an).setSimilarity(similarity(p)).setRAMBufferSizeMB(256);
      try (IndexWriter w = new IndexWriter(d, c)) {
        info = index(w, p, a[2]);
        w.commit();
      }
    }
    double indexS = (System.nanoTime() - t0) / 1e9 - info[2];
    long rssIndex = peakRssKb();
    long bytes = dirBytes(dir);
    StringBuilder json = new StringBuilder();
    json.append(String.format(Locale.ROOT,
        "{\"engine\": \"lucene\", \"corpus\": \"%s\", \"docs\": %d, \"text_bytes\": %d, \"index_seconds\": %.3f, "
            + "\"generation_seconds\": %.3f, \"docs_per_s\": %.1f, \"index_bytes\": %d, \"rss_after_index_kb\": %d, "
            + "\"latency_us\": {",
        corpus.replace("\"", "'"), (long) info[0], (long) info[1], indexS, info[2], info[0] / indexS, bytes, rssIndex));
    try (Directory d = FSDirectory.open(dir);
         DirectoryReader r = DirectoryReader.open(d);
         PrintWriter top = new PrintWriter(Files.newBufferedWriter(Paths.get(prefix + ".top10"), StandardCharsets.UTF_8))) {
      IndexSearcher s = new IndexSearcher(r);
      s.setSimilarity(similarity(p));
      // The JIT compiles Lucene's search loop only after many calls: every query is run five times before
      // any is timed, so the timings are of compiled code (the C++ engines need no such warm-up).
      for (int round = 0; round < 5; ++round)
        for (List<List<String>> qs : byTerms.values())
          for (List<String> q : qs) s.search(query(p, analyzeAll(an, q)), round % 2 == 0 ? 10 : 100);
      boolean first = true;
      for (int k : new int[] {10, 100}) {
        for (Map.Entry<Integer, List<List<String>>> e : byTerms.entrySet()) {
          List<List<String>> qs = e.getValue();
          for (int i = 0; i < Math.min(10, qs.size()); ++i) s.search(query(p, analyzeAll(an, qs.get(i))), k);
          double[] us = new double[qs.size()];
          double hits = 0;
          for (int i = 0; i < qs.size(); ++i) {
            long t = System.nanoTime();
            TopDocs td = s.search(query(p, analyzeAll(an, qs.get(i))), k);
            List<String> ids = new ArrayList<>();
            for (ScoreDoc sd : td.scoreDocs) ids.add(s.doc(sd.doc).get("id"));
            us[i] = (System.nanoTime() - t) / 1e3;
            hits += ids.size();
            if (k == 10) top.println(String.join(" ", qs.get(i)) + "\t" + String.join(" ", ids));
          }
          json.append(String.format(Locale.ROOT,
              "%s\"top%d_%dterm\": {\"queries\": %d, \"p50\": %.1f, \"p99\": %.1f, \"mean_hits\": %.1f}",
              first ? "" : ", ", k, e.getKey(), qs.size(), percentile(us, 0.5), percentile(us, 0.99),
              hits / Math.max(1, qs.size())));
          first = false;
        }
      }
    }
    json.append(String.format(Locale.ROOT, "}, \"peak_rss_kb\": %d}%n", peakRssKb()));
    Files.write(Paths.get(prefix + ".json"), json.toString().getBytes(StandardCharsets.UTF_8));
    System.out.print(json);
  }

  // The query's words through the analyzer (lower-case, stop words, Porter stems), as the index saw them.
  static List<String> analyzeAll(Analyzer an, List<String> words) throws IOException {
    return analyze(an, String.join(" ", words));
  }

  public static void main(String[] a) throws IOException {
    if (a.length == 6 && a[0].equals("rank")) rank(a);
    else if (a.length == 7 && a[0].equals("speed")) speed(a);
    else {
      System.err.println("usage: LuceneBench rank PARAMS DOCS QUERIES OUT K | speed PARAMS DOCS QUERIES DIR PREFIX CORPUS");
      System.exit(2);
    }
  }
}
