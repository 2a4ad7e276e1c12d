/**
 * Skills as markdown text, for transports that hand documents to agents rather than JSON (an MCP server's
 * resources): the list of skills, and one skill whole or one of its sections.
 */
import type { CoreDeps } from '../context.ts';
import { skillSet } from './build.ts';
import { findSkill, skillDocs } from './docs.ts';
import type { ContentBlock, OutlineSection, SkillMetadata } from './types.ts';

type Deps = Pick<CoreDeps, 'registry' | 'now' | 'transportErrors'>;

/** Every skill's metadata, in list order (static first, then connector skills by name). */
export function allSkills(deps: Deps): SkillMetadata[] {
  return skillSet(deps).skills.map((s) => s.metadata);
}

const cell = (s: string) => s.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');

function fence(code: string): string {
  let ticks = '```';
  while (code.includes(ticks)) ticks += '`';
  return ticks;
}

export function blockMarkdown(block: ContentBlock): string {
  switch (block.type) {
    case 'heading':
      return `${'#'.repeat(Math.min(Math.max(block.level, 1), 6))} ${block.text}`;
    case 'paragraph':
      return block.text;
    case 'list':
      return block.items.map((i) => `- ${i}`).join('\n');
    case 'code': {
      const f = fence(block.code);
      return `${f}${block.language}\n${block.code}\n${f}`;
    }
    case 'table':
      return [
        `| ${block.headers.map(cell).join(' | ')} |`,
        `| ${block.headers.map(() => '---').join(' | ')} |`,
        ...block.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
      ].join('\n');
  }
}

const blocks = (content: readonly ContentBlock[]) => content.map(blockMarkdown);

function header(m: SkillMetadata, title = m.title): string[] {
  const lines = [`# ${title}`, `Skill ID: ${m.id}`, `Kind: ${m.kind}`, `Version: ${m.version}`];
  if (m.summary) lines.push(`Summary: ${m.summary}`);
  if (m.warnings.length) lines.push('', 'Warnings:', ...m.warnings.map((w) => `- ${w}`));
  return [lines.join('\n')];
}

const outlineMarkdown = (outline: readonly OutlineSection[]) =>
  `## Outline\n${outline.map((s) => `- \`${s.id}\` ${s.title}${s.summary ? ` - ${s.summary}` : ''}`).join('\n')}`;

/**
 * One skill as markdown. Without `section`: the guidance, then every section (those that only repeat part of
 * another, such as a connector's per-entity sections, are listed in the outline instead). With `section`:
 * that section alone. Throws NOT_FOUND for an unknown skill or section.
 */
export function skillMarkdown(deps: Deps, id: string, section?: string): string {
  if (section !== undefined) {
    const docs = skillDocs(deps, id, section);
    const title = docs.outline.find((s) => s.id === section)?.title ?? section;
    return `${[...header(docs.metadata, `${docs.metadata.title}: ${title}`), ...blocks(docs.content)].join('\n\n')}\n`;
  }
  const skill = findSkill(deps, id);
  const parts = [...header(skill.metadata), ...blocks(skill.document.guidance)];
  for (const s of skill.document.sections) {
    if (skill.document.partial?.has(s.id)) continue;
    parts.push(`## ${s.title}`, `Section \`${s.id}\`: ${s.summary}`, ...blocks(s.content));
  }
  parts.push(outlineMarkdown(skill.outline));
  return `${parts.join('\n\n')}\n`;
}
