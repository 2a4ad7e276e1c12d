/**
 * Skills: agent-readable documentation, in the reference's shapes (`SkillMetadata`, `SkillOutlineSection`,
 * `SkillContentBlock`). A skill is built once from data ces already holds (its connector definitions, its own
 * API) and never holds tenant data, so one set serves every organization.
 */

export type SkillKind = 'static' | 'connector_source';

export interface SkillFreshness {
  state: 'static' | 'live' | 'degraded' | 'unknown';
  checked_at: string | null;
}

export interface SkillMetadata {
  id: string;
  kind: SkillKind;
  title: string;
  summary: string | null;
  tags: string[];
  provenance: string;
  version: string;
  freshness: SkillFreshness;
  warnings: string[];
}

/** One block of rendered docs; only the members of its variant are present. */
export type ContentBlock =
  | { type: 'heading'; text: string; level: number }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'code'; language: string; code: string }
  | { type: 'table'; headers: string[]; rows: string[][] };

export interface SkillSection {
  id: string;
  title: string;
  summary: string;
  content: ContentBlock[];
}

export interface OutlineSection {
  id: string;
  title: string;
  summary: string | null;
  available: boolean;
}

/** A skill's whole text: what `docs` answers without a section (guidance), and its sections. */
export interface SkillDocument {
  id: string;
  kind: SkillKind;
  title: string;
  summary: string;
  tags: string[];
  provenance: string;
  warnings: string[];
  /** Execution guidance: what an agent reads first, before choosing a section. */
  guidance: ContentBlock[];
  sections: SkillSection[];
  /**
   * Sections that repeat part of another one (a connector's per-entity sections repeat its `entities`),
   * offered for a focused read but left out of the whole-skill markdown.
   */
  partial?: ReadonlySet<string>;
}

// ---- block constructors, so the generators read as documents

export const heading = (text: string, level = 2): ContentBlock => ({ type: 'heading', text, level });
export const paragraph = (text: string): ContentBlock => ({ type: 'paragraph', text });
export const list = (items: string[]): ContentBlock => ({ type: 'list', items });
export const code = (value: string, language = 'json'): ContentBlock => ({
  type: 'code',
  language,
  code: value,
});
/** JSON indented only where a line would be long: examples stay short and still parse. */
export function formatJson(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (value === null || typeof value !== 'object' || flat.length + indent.length <= 90) return flat;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => inner + formatJson(v, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${items.join(',\n')}\n${indent}${close}`;
}

export const json = (value: unknown): ContentBlock => code(formatJson(value), 'json');
export const table = (headers: string[], rows: string[][]): ContentBlock => ({
  type: 'table',
  headers,
  rows,
});

/** Inline code in prose: backticks, which every markdown renderer shows as code. */
export const tick = (s: string) => `\`${s}\``;
