// What only GitHub's GraphQL API serves in the fake: discussions of ces-demo/widgets and the Projects (v2) of
// ces-demo. Like the rest of the dataset, everything derives from fixed numbers, so every run is identical.
import type { Dataset, RepoRecord } from './dataset.ts';

const HOUR = 3_600_000;
const EPOCH = Date.UTC(2024, 2, 1);

export interface DiscussionCategory {
  id: string;
  name: string;
  slug: string;
  emoji: string;
  isAnswerable: boolean;
}

export interface DiscussionRecord {
  databaseId: number;
  number: number;
  title: string;
  body: string;
  author: string;
  category: DiscussionCategory;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  stateReason: 'DUPLICATE' | 'OUTDATED' | 'REOPENED' | 'RESOLVED' | null;
  answerChosenAt: number | null;
  upvotes: number;
  comments: number;
}

export interface ProjectItemRecord {
  databaseId: number;
  /** An issue or pull request of the repository by number, or a draft issue. */
  content:
    | { kind: 'issue'; repo: RepoRecord; number: number }
    | { kind: 'draft'; title: string; body: string };
  status: 'Todo' | 'In progress' | 'Done';
  archived: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectRecord {
  databaseId: number;
  number: number;
  title: string;
  shortDescription: string | null;
  readme: string | null;
  public: boolean;
  closedAt: number | null;
  creator: string;
  createdAt: number;
  updatedAt: number;
  items: ProjectItemRecord[];
}

const CATEGORIES: DiscussionCategory[] = [
  {
    id: 'DIC_kwDOBVdxMc4CYxa1',
    name: 'General',
    slug: 'general',
    emoji: ':speech_balloon:',
    isAnswerable: false,
  },
  { id: 'DIC_kwDOBVdxMc4CYxa2', name: 'Q&A', slug: 'q-a', emoji: ':pray:', isAnswerable: true },
  { id: 'DIC_kwDOBVdxMc4CYxa3', name: 'Ideas', slug: 'ideas', emoji: ':bulb:', isAnswerable: false },
];

const DISCUSSIONS: Array<{
  title: string;
  body: string;
  author: string;
  category: number;
  closed?: DiscussionRecord['stateReason'];
  answered?: boolean;
}> = [
  {
    title: 'Welcome to widgets discussions',
    body: 'Say hello and tell us what you build with widgets.',
    author: 'octocat',
    category: 0,
  },
  {
    title: 'How do I calibrate a sprocket?',
    body: 'The sprocket drifts after a few hours of use.',
    author: 'hubot',
    category: 1,
    answered: true,
  },
  {
    title: 'Roadmap for v2',
    body: 'What should land in widgets v2? Gadget support is first.',
    author: 'octocat',
    category: 2,
    closed: 'RESOLVED',
  },
  {
    title: 'Gadgets rattle on startup',
    body: 'Is the rattle expected, or is my gadget broken?',
    author: 'hubot',
    category: 1,
  },
  {
    title: 'Dark mode for the widget console',
    body: 'A dark theme would help during long sprocket sessions.',
    author: 'hubot',
    category: 2,
  },
  {
    title: 'Release notes format',
    body: 'Should release notes list every gadget change?',
    author: 'octocat',
    category: 0,
    closed: 'OUTDATED',
  },
  {
    title: 'Which sprocket size fits v1.1?',
    body: 'The docs mention two sprocket sizes for v1.1.',
    author: 'octocat',
    category: 1,
    answered: true,
  },
];

/** Discussions per repository (only ces-demo/widgets has any) and Projects (v2) per organization. */
export class GraphqlDataset {
  private readonly discussions = new Map<RepoRecord, DiscussionRecord[]>();
  private readonly projects = new Map<string, ProjectRecord[]>();

  constructor(data: Dataset) {
    const widgets = data.repo('ces-demo', 'widgets');
    if (widgets === undefined) throw new Error('github fake: ces-demo/widgets is missing');
    this.discussions.set(
      widgets,
      DISCUSSIONS.map((d, i) => {
        const number = i + 1;
        const createdAt = EPOCH + number * 20 * HOUR;
        // Updates do not follow creation order, so "newest updated first" differs from "by number".
        const updatedAt = createdAt + ((number * 7) % 5) * 24 * HOUR + HOUR;
        return {
          databaseId: 6_100_000 + number,
          number,
          title: d.title,
          body: d.body,
          author: d.author,
          category: CATEGORIES[d.category] as DiscussionCategory,
          createdAt,
          updatedAt,
          closedAt: d.closed ? updatedAt : null,
          stateReason: d.closed ?? null,
          answerChosenAt: d.answered ? createdAt + 3 * HOUR : null,
          upvotes: (number * 3) % 7,
          comments: d.answered ? 2 : number % 3,
        };
      }),
    );
    const item = (
      n: number,
      content: ProjectItemRecord['content'],
      status: ProjectItemRecord['status'],
    ): ProjectItemRecord => ({
      databaseId: 7_200_000 + n,
      content,
      status,
      archived: false,
      createdAt: EPOCH + n * 5 * HOUR,
      updatedAt: EPOCH + n * 9 * HOUR,
    });
    const issue = (number: number) => ({ kind: 'issue' as const, repo: widgets, number });
    this.projects.set('ces-demo', [
      {
        databaseId: 8_300_001,
        number: 1,
        title: 'Widgets roadmap',
        shortDescription: 'What ships in the next widgets releases',
        readme: '# Roadmap\nOne card per planned change.',
        public: false,
        closedAt: null,
        creator: 'octocat',
        createdAt: EPOCH,
        updatedAt: EPOCH + 60 * HOUR,
        items: [
          item(1, issue(1), 'Done'),
          item(2, issue(2), 'In progress'),
          item(3, issue(5), 'In progress'),
          item(4, issue(3), 'Todo'),
          item(
            5,
            { kind: 'draft', title: 'Write the v2 launch post', body: 'Gadgets, sprockets, dark mode.' },
            'Todo',
          ),
        ],
      },
      {
        databaseId: 8_300_002,
        number: 2,
        title: 'Bug triage',
        shortDescription: null,
        readme: null,
        public: true,
        closedAt: null,
        creator: 'hubot',
        createdAt: EPOCH + 10 * HOUR,
        updatedAt: EPOCH + 30 * HOUR,
        items: [item(6, issue(4), 'Todo'), item(7, issue(10), 'Done')],
      },
      {
        databaseId: 8_300_003,
        number: 3,
        title: 'Release 1.0',
        shortDescription: 'Done and closed',
        readme: null,
        public: false,
        closedAt: EPOCH + 20 * HOUR,
        creator: 'octocat',
        createdAt: EPOCH + 2 * HOUR,
        updatedAt: EPOCH + 20 * HOUR,
        items: [],
      },
    ]);
  }

  discussionsOf(repo: RepoRecord): DiscussionRecord[] {
    return this.discussions.get(repo) ?? [];
  }

  allDiscussions(): Array<{ repo: RepoRecord; discussion: DiscussionRecord }> {
    return [...this.discussions].flatMap(([repo, list]) => list.map((discussion) => ({ repo, discussion })));
  }

  projectsOf(login: string): ProjectRecord[] {
    return this.projects.get(login.toLowerCase()) ?? [];
  }
}
