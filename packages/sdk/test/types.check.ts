// Compile-time checks of the search builder's typing, run by `npm run lint` (tsc): each @ts-expect-error line
// must fail to compile, or tsc reports the directive as unused.
import type { ContextStoreSearchPage, ExecuteResult } from '../src/index.ts';
import { type SearchFields, searchQuery } from '../src/index.ts';

type Issue = SearchFields['github']['issues'];
const q = searchQuery<Issue>();

q.where('state').eq('open');
q.where('created_at').gte(new Date());
q.where('labels').any((l) => l('name').like('bu%'));
// @ts-expect-error not an indexed field of GitHub issues
q.where('nope');
// @ts-expect-error a string field compares with strings
q.where('title').gte(5);
// @ts-expect-error text fields take like/fuzzy/keyword only
q.where('body').eq('x');
// @ts-expect-error integers compare with numbers
q.where('number').eq('7');
// @ts-expect-error full-text operators do not apply inside `any`
q.where('labels').any((l) => l('name').fuzzy('bug'));
// @ts-expect-error an array of objects takes `any`, not `contains`
q.where('labels').contains('bug');
// @ts-expect-error text fields cannot be sorted on
q.sort('body');
// @ts-expect-error nor arrays
q.sort('labels', 'asc');
searchQuery<SearchFields['github']['repositories']>().where('topics').contains('vip');
// @ts-expect-error booleans take eq/neq/in only
searchQuery<SearchFields['github']['repositories']>().where('archived').gt(true);

// A context_store_search answer: records under data, paging under meta.
declare const page: ExecuteResult<ContextStoreSearchPage<{ number: number }>>;
const next: string | null = page.result.meta.cursor;
const more: boolean = page.result.meta.has_more;
const first: number | undefined = page.result.data[0]?.number;
void [next, more, first];
// @ts-expect-error the records are under data, not result itself
page.result.map((r) => r);
