// A CodeMirror 6 editor as a Preact component (Python for fact code, SQL for the console). The editor owns
// its text while it is focused; `value` from outside replaces it only when it differs.
import { useEffect, useRef } from 'preact/hooks';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching, indentOnInput } from '@codemirror/language';
import { python } from '@codemirror/lang-python';
import { sql } from '@codemirror/lang-sql';
import { html } from './ui.js';

export function CodeEditor({ value, onChange, language, onRun, testid, minLines }) {
  const host = useRef(null);
  const view = useRef(null);
  const change = useRef(onChange);
  const run = useRef(onRun);
  change.current = onChange;
  run.current = onRun;
  useEffect(() => {
    const runKey = { key: 'Mod-Enter', run: () => { if (run.current) run.current(); return true; } };
    const state = EditorState.create({
      doc: value || '',
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(), indentOnInput(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([runKey, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        language === 'sql' ? sql() : python(),
        EditorView.updateListener.of((u) => { if (u.docChanged && change.current) change.current(u.state.doc.toString()); }),
        EditorView.theme({ '.cm-content': { minHeight: `${(minLines || 4) * 1.4}em` } }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current });
    // The end-to-end tests set code through this handle, as a paste would.
    host.current.cmView = view.current;
    return () => view.current.destroy();
  }, []);
  useEffect(() => {
    const v = view.current;
    if (v && value !== undefined && value !== v.state.doc.toString()) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value || '' } });
    }
  }, [value]);
  return html`<div class="code-editor" ref=${host} data-testid=${testid}></div>`;
}
