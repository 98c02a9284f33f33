// A CodeMirror 6 editor as a Preact component (Python for fact code, SQL for the console).
//
// CodeMirror owns the text: the component seeds it with `initial` when the editor is made and reports every
// edit through `onChange`; nothing flows back from the component while the user types. Feeding the
// component's value back into the editor (the old two-way sync) let a render with an older value overwrite
// newer keystrokes, which reported the older text, which rendered again — two keys a few milliseconds apart
// kept the tab busy forever. The one way in from outside is `reset`: when it changes (a version loaded, a
// conflict resolved, a file picked in the SQL console), the editor's text is replaced by `initial` once,
// without echoing it to `onChange` (the caller already holds that text).
import { useEffect, useRef } from 'preact/hooks';
import { Annotation, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching, indentOnInput } from '@codemirror/language';
import { python } from '@codemirror/lang-python';
import { sql } from '@codemirror/lang-sql';
import { html } from './ui.js';

// Marks the text a `reset` puts in, so the update listener does not report it as an edit.
const fromOutside = Annotation.define();

export function CodeEditor({ initial, reset, onChange, language, onRun, testid, minLines }) {
  const host = useRef(null);
  const view = useRef(null);
  const change = useRef(onChange);
  const run = useRef(onRun);
  const lastReset = useRef(reset);
  change.current = onChange;
  run.current = onRun;
  useEffect(() => {
    const runKey = { key: 'Mod-Enter', run: () => { if (run.current) run.current(); return true; } };
    const state = EditorState.create({
      doc: initial || '',
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(), indentOnInput(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([runKey, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        language === 'sql' ? sql() : python(),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged || !change.current) return;
          if (u.transactions.every((t) => t.annotation(fromOutside))) return;
          change.current(u.state.doc.toString());
        }),
        EditorView.theme({ '.cm-content': { minHeight: `${(minLines || 4) * 1.4}em` } }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current });
    // The end-to-end tests reach the editor through this handle (to paste, and to read what it holds).
    host.current.cmView = view.current;
    return () => view.current.destroy();
  }, []);
  useEffect(() => {
    if (lastReset.current === reset) return;
    lastReset.current = reset;
    const v = view.current;
    const text = initial || '';
    if (v && text !== v.state.doc.toString()) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, annotations: fromOutside.of(true) });
    }
  }, [reset]);
  return html`<div class="code-editor" ref=${host} data-testid=${testid}></div>`;
}
