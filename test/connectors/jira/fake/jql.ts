// The subset of JQL the fake evaluates, with Jira's own error texts for what it refuses:
//   clauses   project (= != IN, NOT IN; key, id or name), key/issuekey/id/issue (= != IN, NOT IN),
//             status (= != IN, NOT IN; name or id), updated/updatedDate/created/createdDate (= != > >= < <=)
//   dates     "yyyy-MM-dd HH:mm", "yyyy/MM/dd HH:mm", "yyyy-MM-dd", "yyyy/MM/dd" (UTC, the users' zone), a
//             period relative to now ("-5d", "-4w 2d", "-3h", "-15m") or epoch milliseconds
//   logic     AND, OR, NOT, parentheses
//   ordering  ORDER BY updated|created|key|issuekey|id|summary|priority [ASC|DESC], … (default: key DESC)
// A query without a search restriction is refused as unbounded (the enhanced search requires bounded JQL).
import { type Dataset, type IssueRec, PRIORITIES, STATUSES } from './dataset.ts';

export class JqlError extends Error {}

type Token = { kind: 'word' | 'string' | 'op' | 'punct'; text: string; at: number };

const OPERATORS_TEXT =
  "The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'.";
const DATE_HINT =
  "Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.";
const RESERVED = new Set(['and', 'or', 'not', 'in', 'order', 'by', 'is', 'empty', 'null']);

function tokenize(jql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < jql.length) {
    const ch = jql[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = jql.indexOf(ch, i + 1);
      if (end === -1)
        throw syntax(`Expecting a quote (${ch}) to end the string starting at`, i, jql.slice(i, i + 10));
      tokens.push({ kind: 'string', text: jql.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    const op = /^(!=|>=|<=|!~|=|>|<|~)/.exec(jql.slice(i));
    if (op) {
      tokens.push({ kind: 'op', text: op[1] as string, at: i });
      i += (op[1] as string).length;
      continue;
    }
    if ('(),'.includes(ch)) {
      tokens.push({ kind: 'punct', text: ch, at: i });
      i++;
      continue;
    }
    const word = /^[A-Za-z0-9_.\-+/:[\]]+/.exec(jql.slice(i));
    if (!word) {
      throw new JqlError(
        `Error in the JQL Query: The character '${ch}' is a reserved JQL character. You must enclose it in a string or use the escape '\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}' instead. (line 1, character ${i + 1})`,
      );
    }
    tokens.push({ kind: 'word', text: word[0], at: i });
    i += word[0].length;
  }
  return tokens;
}

function syntax(reason: string, at: number, got?: string): JqlError {
  return new JqlError(
    `Error in the JQL Query: ${reason}${got === undefined ? '' : ` '${got}'`}${reason.endsWith('.') && got === undefined ? '' : '.'} (line 1, character ${at + 1})`,
  );
}

type Pred = (issue: IssueRec) => boolean;
type SortKey = { field: string; desc: boolean };

export interface CompiledJql {
  where: Pred | undefined;
  order: SortKey[];
}

export function compileJql(jql: string, data: Dataset, now: number): CompiledJql {
  const tokens = tokenize(jql);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toLowerCase() === w;
  const end = () =>
    tokens.length === 0 ? 0 : (tokens.at(-1) as Token).at + (tokens.at(-1) as Token).text.length;

  const orExpr = (): Pred => {
    let left = andExpr();
    while (isWord(peek(), 'or')) {
      pos++;
      const l = left;
      const r = andExpr();
      left = (i) => l(i) || r(i);
    }
    return left;
  };
  const andExpr = (): Pred => {
    let left = notExpr();
    while (isWord(peek(), 'and')) {
      pos++;
      const l = left;
      const r = notExpr();
      left = (i) => l(i) && r(i);
    }
    return left;
  };
  const notExpr = (): Pred => {
    const t = peek();
    if (isWord(t, 'not')) {
      pos++;
      const inner = notExpr();
      return (i) => !inner(i);
    }
    if (t?.kind === 'punct' && t.text === '(') {
      pos++;
      const inner = orExpr();
      const close = peek();
      if (close?.kind !== 'punct' || close.text !== ')')
        throw syntax("Expecting ')' but got", close?.at ?? end(), close?.text ?? 'end of query');
      pos++;
      return inner;
    }
    return clause();
  };
  const value = (): string => {
    const t = peek();
    if (
      !t ||
      (t.kind === 'word' && RESERVED.has(t.text.toLowerCase())) ||
      t.kind === 'op' ||
      t.kind === 'punct'
    )
      throw syntax(
        t
          ? 'Expecting either a value, list or function but got'
          : 'Expecting either a value, list or function but got end of query',
        t?.at ?? end(),
        t?.text,
      );
    pos++;
    if (t.kind === 'word' && peek()?.kind === 'punct' && peek()?.text === '(')
      throw new JqlError(`Error in the JQL Query: Unable to find JQL function '${t.text}()'.`);
    return t.text;
  };
  const values = (): string[] => {
    const open = peek();
    if (open?.kind !== 'punct' || open.text !== '(') return [value()];
    pos++;
    const list = [value()];
    while (peek()?.kind === 'punct' && peek()?.text === ',') {
      pos++;
      list.push(value());
    }
    const close = peek();
    if (close?.kind !== 'punct' || close.text !== ')')
      throw syntax("Expecting ')' but got", close?.at ?? end(), close?.text ?? 'end of query');
    pos++;
    return list;
  };
  const clause = (): Pred => {
    const f = peek();
    if (!f || f.kind === 'op' || f.kind === 'punct')
      throw syntax('Expecting a field name but got', f?.at ?? end(), f?.text ?? 'end of query');
    pos++;
    let op: string;
    const o = peek();
    if (o?.kind === 'op') {
      op = o.text;
      pos++;
    } else if (isWord(o, 'in')) {
      op = 'in';
      pos++;
    } else if (isWord(o, 'not') && isWord(tokens[pos + 1], 'in')) {
      op = 'not in';
      pos += 2;
    } else if (isWord(o, 'is')) {
      throw new JqlError(`The operator 'is' is not supported by the '${f.text}' field.`);
    } else {
      throw syntax(
        `Expecting operator but got '${o?.text ?? 'end of query'}'. ${OPERATORS_TEXT}`,
        o?.at ?? end(),
      );
    }
    const field = f.text.toLowerCase();
    const vals = op === 'in' || op === 'not in' ? values() : [value()];
    return fieldClause(field, f.text, op, vals);
  };

  const fieldClause = (field: string, shown: string, op: string, vals: string[]): Pred => {
    const member = (test: (i: IssueRec, v: string) => boolean): Pred => {
      if (op === '=' || op === 'in') return (i) => vals.some((v) => test(i, v));
      if (op === '!=' || op === 'not in') return (i) => !vals.some((v) => test(i, v));
      throw new JqlError(`The operator '${op}' is not supported by the '${shown}' field.`);
    };
    if (field === 'project') {
      const ids = vals.map((v) => {
        const p = data.projects.find(
          (x) =>
            x.id === v || x.key.toLowerCase() === v.toLowerCase() || x.name.toLowerCase() === v.toLowerCase(),
        );
        if (!p) throw new JqlError(`The value '${v}' does not exist for the field 'project'.`);
        return p.id;
      });
      return member((i, v) => i.projectId === ids[vals.indexOf(v)]);
    }
    if (['key', 'issuekey', 'id', 'issue'].includes(field)) {
      for (const v of vals)
        if (!data.issue(v))
          throw new JqlError(`An issue with key '${v}' does not exist for field '${shown}'.`);
      return member((i, v) => i.id === v || i.key === v.toUpperCase());
    }
    if (field === 'status') {
      for (const v of vals)
        if (!STATUSES.some((s) => s.id === v || s.name.toLowerCase() === v.toLowerCase()))
          throw new JqlError(`The value '${v}' does not exist for the field 'status'.`);
      return member((i, v) => {
        const s = STATUSES.find((x) => x.id === i.statusId);
        return s !== undefined && (s.id === v || s.name.toLowerCase() === v.toLowerCase());
      });
    }
    const dateField = {
      updated: 'updated',
      updateddate: 'updated',
      created: 'created',
      createddate: 'created',
    }[field];
    if (dateField !== undefined) {
      if (op === 'in' || op === 'not in' || op === '~' || op === '!~')
        throw new JqlError(`The operator '${op}' is not supported by the '${shown}' field.`);
      const at = parseJqlDate(vals[0] as string, now);
      if (at === undefined)
        throw new JqlError(`Date value '${vals[0]}' for field '${shown}' is invalid. ${DATE_HINT}`);
      const get = (i: IssueRec) => (dateField === 'updated' ? i.updated : i.created);
      const cmp: Record<string, (a: number) => boolean> = {
        '=': (a) => a === at,
        '!=': (a) => a !== at,
        '>': (a) => a > at,
        '>=': (a) => a >= at,
        '<': (a) => a < at,
        '<=': (a) => a <= at,
      };
      const test = cmp[op] as (a: number) => boolean;
      return (i) => test(get(i));
    }
    throw new JqlError(`Field '${shown}' does not exist or you do not have permission to view it.`);
  };

  let where: Pred | undefined;
  if (tokens.length > 0 && !isWord(peek(), 'order')) where = orExpr();
  const order: SortKey[] = [];
  if (pos < tokens.length) {
    if (!isWord(peek(), 'order') || !isWord(tokens[pos + 1], 'by')) {
      const t = peek() as Token;
      throw syntax("Expecting either 'OR' or 'AND' but got", t.at, t.text);
    }
    pos += 2;
    for (;;) {
      const f = peek();
      if (!f || (f.kind !== 'word' && f.kind !== 'string'))
        throw syntax('Expecting a field name but got', f?.at ?? end(), f?.text ?? 'end of query');
      pos++;
      const name = f.text.toLowerCase();
      const field = {
        updated: 'updated',
        updateddate: 'updated',
        created: 'created',
        createddate: 'created',
        key: 'key',
        issuekey: 'key',
        id: 'key',
        summary: 'summary',
        priority: 'priority',
      }[name];
      if (field === undefined)
        throw new JqlError(`Field '${f.text}' does not exist or you do not have permission to view it.`);
      let desc = false;
      if (isWord(peek(), 'asc') || isWord(peek(), 'desc')) {
        desc = (peek() as Token).text.toLowerCase() === 'desc';
        pos++;
      }
      order.push({ field, desc });
      if (peek()?.kind === 'punct' && peek()?.text === ',') {
        pos++;
        continue;
      }
      break;
    }
    if (pos < tokens.length) {
      const t = tokens[pos] as Token;
      throw syntax("Expecting ',' but got", t.at, t.text);
    }
  }
  return { where, order: order.length > 0 ? order : [{ field: 'key', desc: true }] };
}

export function parseJqlDate(raw: string, now: number): number | undefined {
  const abs = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?: (\d{1,2}):(\d{2}))?$/.exec(raw.trim());
  if (abs) {
    const [, y, mo, d, h, mi] = abs;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0));
    const back = new Date(ms);
    return back.getUTCMonth() === Number(mo) - 1 && back.getUTCDate() === Number(d) ? ms : undefined;
  }
  if (/^\d{10,}$/.test(raw)) return Number(raw);
  const rel = /^([-+]?)\s*((?:\d+[wdhm]\s*)+)$/.exec(raw.trim());
  if (rel) {
    const sizes: Record<string, number> = { w: 7 * 86400_000, d: 86400_000, h: 3600_000, m: 60_000 };
    let total = 0;
    for (const m of (rel[2] as string).matchAll(/(\d+)([wdhm])/g))
      total += Number(m[1]) * (sizes[m[2] as string] as number);
    return rel[1] === '-' ? now - total : now + total;
  }
  return undefined;
}

export function sortIssues(issues: IssueRec[], order: SortKey[]): IssueRec[] {
  const keyOf = (i: IssueRec): [string, number] => {
    const [p, n] = i.key.split('-');
    return [p as string, Number(n)];
  };
  const priorityRank = (i: IssueRec) => PRIORITIES.findIndex((p) => p.id === i.priorityId);
  return [...issues].sort((a, b) => {
    for (const { field, desc } of order) {
      let c = 0;
      if (field === 'updated') c = a.updated - b.updated;
      else if (field === 'created') c = a.created - b.created;
      else if (field === 'summary') c = a.summary.localeCompare(b.summary);
      else if (field === 'priority') c = priorityRank(b) - priorityRank(a);
      else {
        const [pa, na] = keyOf(a);
        const [pb, nb] = keyOf(b);
        c = pa === pb ? na - nb : pa < pb ? -1 : 1;
      }
      if (c !== 0) return desc ? -c : c;
    }
    return Number(a.id) - Number(b.id);
  });
}
