// Gong members ces answers as Gong sends them, not as the hosted catalog types them. Gong's reference types the
// ids of scorecards, their questions, answered scorecards, workspaces, users and calls in these two lists as
// int64 JSON numbers (the seeded data follows it); the hosted catalog says strings. A call id has up to 20
// digits, past what a double holds exactly: ces passes these lists on as Gong's bytes, digits intact, while
// `record_fields` (`type: string`) converts the parsed number: the seeded calls 7782342274025937000, ...003 and
// ...006 all came out as "7782342274025937000". Writing any member also makes the whole record parsed, so the
// ids inside would lose digits as well. A typed hosted client rejecting a number beats ces answering
// an id that names something else. The members inside arrays (questions[], answers[]) are also out of
// `record_fields`' reach (keys are paths through objects). Lifted when the conversion reads the number's text.
import type { HostedTypeException } from '../suite/hosted-exceptions.ts';

const reason =
  "Gong's int64 number, kept with its digits: record_fields would convert a parsed double (see the file comment)";

export const GONG_HOSTED_TYPE_EXCEPTIONS: readonly HostedTypeException[] = [
  'stats_activity_scorecards.list[].answeredScorecardId',
  'stats_activity_scorecards.list[].scorecardId',
  'stats_activity_scorecards.list[].callId',
  'stats_activity_scorecards.list[].reviewedUserId',
  'stats_activity_scorecards.list[].reviewerUserId',
  'stats_activity_scorecards.list[].answers[].questionId',
  'stats_activity_scorecards.list[].answers[].questionRevisionId',
  'settings_scorecards.list[].scorecardId',
  'settings_scorecards.list[].workspaceId',
  'settings_scorecards.list[].updaterUserId',
  'settings_scorecards.list[].questions[].questionId',
  'settings_scorecards.list[].questions[].questionRevisionId',
  'settings_scorecards.list[].questions[].updaterUserId',
].map((path) => ({ path, reason }));
