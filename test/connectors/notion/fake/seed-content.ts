// The page content of the seed (dataset.ts): blocks under every page — 130 top-level ones under
// "Engineering Handbook", with a toggle holding children and hosted file/image/pdf blocks every tenth — and
// the comments (page discussions on the handbook and the other top-level pages, block comments on two
// handbook blocks).
import type { CommentRec, Dataset, PageRec, Stamped } from './dataset.ts';
import { richText, seededId } from './wire.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const NOUNS = [
  'billing flow',
  'search index',
  'launch post',
  'API limits',
  'sync job',
  'style guide',
  'on-call rota',
  'pricing page',
];

export function seedBlocks(data: Dataset): void {
  const handbook = data.page(data.handbookId) as PageRec;
  for (let j = 0; j < 130; j++) {
    const id = seededId('block', handbook.id, j);
    const created = handbook.created_time + (j + 1) * MINUTE;
    const stamps: Stamped = {
      created_time: created,
      last_edited_time: Math.max(created, handbook.last_edited_time - ((j * 11) % 90) * MINUTE),
      created_by: handbook.created_by,
      last_edited_by: data.person(j).id,
    };
    const base = { id, parentId: handbook.id, parentType: 'page_id' as const, ...stamps };
    const text = `Handbook section ${Math.floor(j / 10) + 1}, item ${j + 1}: ${NOUNS[j % NOUNS.length]}.`;
    const slot = j % 10;
    if (slot === 9) {
      const kind = (['image', 'pdf', 'file'] as const)[Math.floor(j / 10) % 3] ?? 'file';
      if (j === 59) {
        data.addBlock({
          ...base,
          type: 'image',
          content: {
            caption: [],
            type: 'external',
            external: { url: 'https://images.example.com/handbook/cover.png' },
          },
        });
        continue;
      }
      const name =
        kind === 'image' ? `diagram-${j}.png` : kind === 'pdf' ? `policy-${j}.pdf` : `notes-${j}.txt`;
      const contentType = kind === 'image' ? 'image/png' : kind === 'pdf' ? 'application/pdf' : 'text/plain';
      const fileId = seededId('file', id);
      data.addBlock({
        ...base,
        type: kind,
        content: {
          caption: [richText(`Attachment ${name}`)],
          type: 'file',
          ...(kind === 'image' ? {} : { name }),
        },
        file: { key: `${data.workspaceId}/${fileId}/${name}`, name, contentType },
      });
      continue;
    }
    if (slot === 0)
      data.addBlock({
        ...base,
        type: 'heading_2',
        content: { rich_text: [richText(`Section ${j / 10 + 1}`)], is_toggleable: false, color: 'default' },
      });
    else if (slot === 5 || slot === 6)
      data.addBlock({
        ...base,
        type: 'bulleted_list_item',
        content: { rich_text: [richText(text)], color: 'default' },
      });
    else if (slot === 7)
      data.addBlock({
        ...base,
        type: 'to_do',
        content: { rich_text: [richText(text)], checked: j % 20 === 7, color: 'default' },
      });
    else if (slot === 8)
      data.addBlock({
        ...base,
        type: 'code',
        content: { caption: [], rich_text: [richText(`echo "step ${j}"`)], language: 'shell' },
      });
    else if (j === 3) {
      data.addBlock({
        ...base,
        type: 'toggle',
        content: { rich_text: [richText('Frequently asked questions')], color: 'default' },
      });
      for (let c = 0; c < 3; c++)
        data.addBlock({
          ...base,
          id: seededId('block', id, c),
          parentId: id,
          parentType: 'block_id',
          type: 'paragraph',
          content: { rich_text: [richText(`Answer ${c + 1}.`)], color: 'default' },
        });
    } else
      data.addBlock({
        ...base,
        type: 'paragraph',
        content: { rich_text: [richText(text)], color: 'default' },
      });
  }
  for (const page of data.pages) {
    if (page.id === handbook.id) continue;
    const count = page.row ? 2 : 3;
    const existing = data.childrenOf(page.id).slice();
    data.childrenOf(page.id).length = 0;
    for (let j = 0; j < count; j++) {
      const type = j === 0 && !page.row ? 'heading_1' : j === 2 ? 'bulleted_list_item' : 'paragraph';
      data.addBlock({
        id: seededId('block', page.id, j),
        parentId: page.id,
        parentType: 'page_id',
        type,
        content: {
          rich_text: [richText(j === 0 && !page.row ? page.title : `${page.title}: note ${j}`)],
          ...(type === 'heading_1' ? { is_toggleable: false } : {}),
          color: 'default',
        },
        created_time: page.created_time + (j + 1) * MINUTE,
        last_edited_time: page.created_time + (j + 1) * MINUTE,
        created_by: page.created_by,
        last_edited_by: page.created_by,
      });
    }
    // child pages and databases follow the page's own blocks
    data.childrenOf(page.id).push(...existing);
  }
}

export function seedComments(data: Dataset): void {
  const handbook = data.page(data.handbookId) as PageRec;
  const add = (parent: CommentRec['parent'], discussion: string, at: number, by: number, text: string) =>
    data.comments.push({
      id: seededId('comment', data.comments.length),
      parent,
      discussion_id: discussion,
      created_time: at,
      last_edited_time: at,
      created_by: data.person(by).id,
      text,
    });
  for (let i = 0; i < 24; i++) {
    add(
      { type: 'page_id', page_id: handbook.id },
      seededId('discussion', handbook.id, Math.floor(i / 4)),
      handbook.created_time + (i + 2) * HOUR,
      i,
      `Handbook remark ${i + 1}`,
    );
  }
  for (const j of [1, 2]) {
    const blockId = seededId('block', handbook.id, j);
    for (let i = 0; i < 3; i++)
      add(
        { type: 'block_id', block_id: blockId },
        seededId('discussion', blockId),
        handbook.created_time + (30 + j * 3 + i) * HOUR,
        i + j,
        `On item ${j + 1}: reply ${i + 1}`,
      );
  }
  for (const page of data.pages.filter((p) => p.parent.type === 'workspace' && p.id !== handbook.id)) {
    for (let i = 0; i < 2; i++)
      add(
        { type: 'page_id', page_id: page.id },
        seededId('discussion', page.id),
        page.created_time + (i + 1) * HOUR,
        i + 5,
        `${page.title}: comment ${i + 1}`,
      );
  }
}
