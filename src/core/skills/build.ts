/**
 * The skills of this process: the static ones, then one per connector type, built once per definition
 * registry (definitions are immutable after start-up) and kept. Nothing here reads tenant data.
 */
import { createHash } from 'node:crypto';
import type { DefinitionRegistry } from '../../connectors/registry.ts';
import { foldWord, NON_ASCII, searchWords } from '../../context-store/query.ts';
import type { CoreDeps } from '../context.ts';
import { connectorSkill } from './connector.ts';
import { authenticationSkill, pagingSkill } from './static-access.ts';
import { errorsSkill } from './static-errors.ts';
import { searchDslSkill } from './static-search.ts';
import type { ContentBlock, OutlineSection, SkillDocument, SkillMetadata } from './types.ts';

/** A word as search compares it: folded, and without a plural `s` so `issue` finds `issues`. */
export function searchTerm(word: string): string {
  const folded = foldWord(word);
  return folded.length > 3 && folded.endsWith('s') ? folded.slice(0, -1) : folded;
}

/**
 * The words of a text, lower-cased. ASCII text (nearly all of it) is split with a plain regex: searchWords'
 * Unicode classes cost about 1.4 µs per character, which for the 1.3 MB of generated docs was 0.9 s of start-up.
 */
function words(text: string): string[] {
  return NON_ASCII.test(text) ? searchWords(text) : (text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

export const terms = (text: string): string[] => words(text).map(searchTerm);

export interface Skill {
  metadata: SkillMetadata;
  document: SkillDocument;
  outline: OutlineSection[];
  /** The search terms of each part of the skill, for ranking. */
  terms: { title: Set<string>; tags: Set<string>; summary: Set<string>; content: Set<string> };
}

export interface SkillSet {
  /** Static skills first, then connector skills by name: the order lists and ties in search use. */
  skills: readonly Skill[];
  /** By lower-cased id: ids hold UUIDs, which clients may write in either case. */
  byId: ReadonlyMap<string, Skill>;
}

function blockText(block: ContentBlock): string[] {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return [block.text];
    case 'list':
      return block.items;
    case 'code':
      return [block.code];
    case 'table':
      return [...block.headers, ...block.rows.flat()];
  }
}

/** The sections whose content is not a repetition of another's. */
const ownSections = (doc: SkillDocument) => doc.sections.filter((s) => !doc.partial?.has(s.id));

function contentTerms(doc: SkillDocument): Set<string> {
  const texts: string[] = [];
  for (const block of doc.guidance) texts.push(...blockText(block));
  for (const section of doc.sections) texts.push(section.title, section.summary);
  for (const section of ownSections(doc))
    for (const block of section.content) texts.push(...blockText(block));
  // Distinct words first: most repeat (field and param names), and folding each costs more than splitting.
  const distinct = new Set<string>();
  for (const text of texts) for (const word of words(text)) distinct.add(word);
  return new Set([...distinct].map(searchTerm));
}

function finish(doc: SkillDocument, checkedAt: string): Skill {
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        [doc.title, doc.summary, doc.tags, doc.provenance, doc.warnings, doc.guidance],
        doc.sections.map((s) => [s.id, s.title, s.summary]),
        ownSections(doc).map((s) => s.content),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  return {
    metadata: {
      id: doc.id,
      kind: doc.kind,
      title: doc.title,
      summary: doc.summary,
      tags: doc.tags,
      provenance: doc.provenance,
      version: `sha256:${fingerprint}`,
      freshness:
        doc.kind === 'static'
          ? { state: 'static', checked_at: null }
          : { state: 'live', checked_at: checkedAt },
      warnings: doc.warnings,
    },
    document: doc,
    outline: doc.sections.map((s) => ({ id: s.id, title: s.title, summary: s.summary, available: true })),
    terms: {
      title: new Set(terms(doc.title)),
      tags: new Set(doc.tags.flatMap(terms)),
      summary: new Set(terms(doc.summary)),
      content: contentTerms(doc),
    },
  };
}

/** What building the skills reads: the definitions, the clock, and the transport's own error codes. */
export type SkillDeps = Pick<CoreDeps, 'registry' | 'now' | 'transportErrors'>;

const cache = new WeakMap<DefinitionRegistry, SkillSet>();
const servedSince = new WeakMap<DefinitionRegistry, string>();

/**
 * Records when this server began serving `deps.registry` (its routes call this at start-up): the connector
 * skills' `freshness.checked_at`. Building the skills waits for the first request that needs them: it takes
 * 0.2–0.3 s, which every process start (and every test harness) would otherwise pay.
 */
export function noteSkillsServed(deps: Pick<CoreDeps, 'registry' | 'now'>): void {
  if (!servedSince.has(deps.registry)) servedSince.set(deps.registry, deps.now().toISOString());
}

/** The skill set of `deps.registry`, built on first use and kept (definitions never change while running). */
export function skillSet(deps: SkillDeps): SkillSet {
  const cached = cache.get(deps.registry);
  if (cached) return cached;
  const checkedAt = servedSince.get(deps.registry) ?? deps.now().toISOString();
  const docs = [
    authenticationSkill(),
    pagingSkill(),
    searchDslSkill(),
    errorsSkill(deps.transportErrors),
    // The registry keeps its definitions sorted by name.
    ...deps.registry.all().map(connectorSkill),
  ];
  const skills = docs.map((d) => finish(d, checkedAt));
  const byId = new Map<string, Skill>();
  for (const skill of skills) {
    const key = skill.metadata.id.toLowerCase();
    if (byId.has(key)) throw new Error(`duplicate skill id ${skill.metadata.id}`);
    byId.set(key, skill);
  }
  const set = { skills, byId };
  cache.set(deps.registry, set);
  return set;
}
