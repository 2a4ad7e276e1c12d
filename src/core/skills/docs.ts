/** Reading a skill's docs: its metadata and outline, with the execution guidance or one section's content. */

import { DomainError } from '../../errors.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { type Skill, skillSet } from './build.ts';
import { checkSkillScope, type SkillScope } from './scope.ts';
import type { ContentBlock, OutlineSection, SkillMetadata } from './types.ts';

export interface SkillDocs {
  metadata: SkillMetadata;
  outline: OutlineSection[];
  section_id: string | null;
  content: ContentBlock[];
}

export function findSkill(deps: Pick<CoreDeps, 'registry' | 'now' | 'transportErrors'>, id: string): Skill {
  const skill = skillSet(deps).byId.get(id.toLowerCase());
  if (!skill) {
    throw new DomainError('NOT_FOUND', `Skill ${id} not found; GET /api/v1/skills lists them.`, {
      errors: [{ field: 'id', message: 'no skill with this id', error_code: 'not_found', details: null }],
    });
  }
  return skill;
}

/** The docs without a transport: what the HTTP route and the markdown rendering both answer. */
export function skillDocs(
  deps: Pick<CoreDeps, 'registry' | 'now' | 'transportErrors'>,
  id: string,
  section?: string,
): SkillDocs {
  const skill = findSkill(deps, id);
  const base = { metadata: skill.metadata, outline: skill.outline };
  if (section === undefined) return { ...base, section_id: null, content: skill.document.guidance };
  const found = skill.document.sections.find((s) => s.id === section);
  if (!found) {
    throw new DomainError(
      'NOT_FOUND',
      `Skill ${skill.metadata.id} has no section '${section}'; its outline lists the sections.`,
      {
        errors: [
          {
            field: 'section',
            message: 'no section with this id',
            error_code: 'not_found',
            details: { sections: skill.outline.map((s) => s.id) },
          },
        ],
      },
    );
  }
  return { ...base, section_id: found.id, content: found.content };
}

export async function readSkillDocs(
  deps: Pick<CoreDeps, 'registry' | 'now' | 'transportErrors' | 'store'>,
  ctx: RequestContext,
  input: SkillScope & { id: string; section?: string | undefined },
): Promise<SkillDocs> {
  await checkSkillScope(deps, ctx, input);
  return skillDocs(deps, input.id, input.section);
}
