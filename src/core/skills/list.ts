/** The list and search verbs of skills: pages of SkillMetadata with an opaque, signed cursor. */

import { invalidField } from '../../errors.ts';
import { signValue, verifyValue } from '../../security/signed.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { type Skill, skillSet, terms } from './build.ts';
import { checkSkillScope, type SkillScope } from './scope.ts';
import type { SkillMetadata } from './types.ts';

export const DEFAULT_SKILL_PAGE = 20;

export interface SkillPageInput extends SkillScope {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface SkillPage {
  data: SkillMetadata[];
  next_cursor: string | null;
}

type Deps = Pick<CoreDeps, 'registry' | 'now' | 'transportErrors' | 'store' | 'secrets'>;

/**
 * Offsets into a list that is fixed for the life of the process. The cursor is signed so a client cannot
 * forge one, and bound to the query it came from: a search cursor continues only its own search.
 */
function page(
  deps: Deps,
  skills: readonly Skill[],
  input: SkillPageInput,
  purpose: string,
  query = '',
): SkillPage {
  const limit = input.limit ?? DEFAULT_SKILL_PAGE;
  let offset = 0;
  if (input.cursor !== undefined) {
    const value = verifyValue(deps.secrets.cursorKey, purpose, input.cursor) as
      | { o?: unknown; q?: unknown }
      | undefined;
    if (!value || !Number.isSafeInteger(value.o) || (value.o as number) < 0 || value.q !== query) {
      throw invalidField(
        'INVALID_CURSOR',
        'cursor',
        'The cursor is not one this endpoint returned for this query.',
      );
    }
    offset = value.o as number;
  }
  const end = offset + limit;
  return {
    data: skills.slice(offset, end).map((s) => s.metadata),
    next_cursor:
      end < skills.length ? signValue(deps.secrets.cursorKey, purpose, { o: end, q: query }) : null,
  };
}

/** Every skill: the static ones first, then one per connector type by name. */
export async function listSkills(deps: Deps, ctx: RequestContext, input: SkillPageInput): Promise<SkillPage> {
  await checkSkillScope(deps, ctx, input);
  return page(deps, skillSet(deps).skills, input, 'skills.list');
}

/** How much a term found in each part of a skill counts: a match in the title says most. */
const WEIGHTS = { title: 8, tags: 6, summary: 3, content: 1 } as const;

/**
 * Skills ranked by the query's words (case-insensitive, plural-tolerant) found in their title, tags, summary and
 * content; skills matching none are left out. Ties keep the list order, so the ranking is deterministic.
 */
export function rankSkills(skills: readonly Skill[], query: string): Skill[] {
  const wanted = [...new Set(terms(query))];
  const scored: Array<{ skill: Skill; score: number; index: number }> = [];
  skills.forEach((skill, index) => {
    let score = 0;
    for (const term of wanted) {
      for (const part of Object.keys(WEIGHTS) as Array<keyof typeof WEIGHTS>)
        if (skill.terms[part].has(term)) score += WEIGHTS[part];
    }
    if (score > 0) scored.push({ skill, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.skill);
}

export async function searchSkills(
  deps: Deps,
  ctx: RequestContext,
  input: SkillPageInput & { query: string },
): Promise<SkillPage> {
  await checkSkillScope(deps, ctx, input);
  const normalized = terms(input.query).join(' ');
  return page(deps, rankSkills(skillSet(deps).skills, input.query), input, 'skills.search', normalized);
}
