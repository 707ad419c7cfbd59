// Router tags: a model calls a capability inside its text as [KEY]args[/KEY].
// This parser only finds the tags; which keys exist and who may run them is the router's business.
//
// Decisions (each tested in core/test/capabilities/router-tags.test.ts):
// - Tags are read left to right; text around them is kept as text segments.
// - The body is everything up to the first matching close tag, taken literally and trimmed at
//   both ends: tags do not nest, so an inner [B]…[/B] is part of A's arguments and never runs
//   (text a capability received must not be able to smuggle in further calls).
// - Keys are matched case-insensitively and normalised to upper case ([web_fetch] is WEB_FETCH);
//   the tag records the form it was written in.
// - An opening tag with no close is not a run. When it looks like a key (upper case, or containing
//   an underscore) it is reported as a problem; otherwise it is ordinary bracketed text ([1], [Note]).
// - A close tag with no opening is reported as a problem and otherwise left as text.

export interface RouterTag {
  kind: 'tag';
  /** Upper-cased key. */
  key: string;
  /** The key as written, when it was not already upper case. */
  writtenAs?: string;
  /** The arguments between the tags, trimmed. */
  body: string;
  /** Offsets of the whole tag in the text: [start, end). */
  start: number;
  end: number;
}

export interface TextSegment {
  kind: 'text';
  text: string;
}

export interface TagProblem {
  problem: 'unterminated' | 'unopened';
  key: string;
  at: number;
}

export interface ParsedRouterText {
  segments: (TextSegment | RouterTag)[];
  tags: RouterTag[];
  problems: TagProblem[];
}

// An opening or closing tag: [KEY] or [/KEY], KEY of the key alphabet in any case.
const TAG = /\[(\/?)([A-Za-z][A-Za-z0-9_]{1,127})\]/g;

const looksLikeKey = (name: string): boolean => name.includes('_') || name === name.toUpperCase();

export function parseRouterTags(text: string): ParsedRouterText {
  const segments: (TextSegment | RouterTag)[] = [];
  const problems: TagProblem[] = [];
  let textStart = 0;
  let cursor = 0;

  const pushText = (until: number): void => {
    if (until > textStart) segments.push({ kind: 'text', text: text.slice(textStart, until) });
  };

  while (cursor < text.length) {
    TAG.lastIndex = cursor;
    const open = TAG.exec(text);
    if (!open) break;
    const [whole, slash, name] = open as unknown as [string, string, string];
    if (slash) {
      if (looksLikeKey(name)) problems.push({ problem: 'unopened', key: name.toUpperCase(), at: open.index });
      cursor = open.index + whole.length;
      continue;
    }
    const bodyStart = open.index + whole.length;
    const close = findClose(text, name, bodyStart);
    if (close === -1) {
      if (looksLikeKey(name)) problems.push({ problem: 'unterminated', key: name.toUpperCase(), at: open.index });
      cursor = bodyStart;
      continue;
    }
    pushText(open.index);
    const end = close + name.length + 3;
    const key = name.toUpperCase();
    segments.push({ kind: 'tag', key, ...(key !== name ? { writtenAs: name } : {}), body: text.slice(bodyStart, close).trim(), start: open.index, end });
    textStart = cursor = end;
  }
  pushText(text.length);
  return { segments, tags: segments.filter((s): s is RouterTag => s.kind === 'tag'), problems };
}

/** Index of the first [/NAME] at or after `from`, in any case; -1 when there is none. */
function findClose(text: string, name: string, from: number): number {
  // name is of the key alphabet, so it is safe inside a pattern.
  const close = new RegExp(`\\[/${name}\\]`, 'gi');
  close.lastIndex = from;
  return close.exec(text)?.index ?? -1;
}
