// The site's fixed configuration both projects share: the simplified workflow's statuses and global
// transitions, issue types, priorities, the Done resolution and the issue link types (shapes: StatusDetails,
// StatusCategory, IssueTransition, IssueTypeDetails, Priority, Resolution, IssueLinkType).

export const STATUSES = [
  { id: '10000', name: 'To Do', description: '', category: 2 },
  {
    id: '3',
    name: 'In Progress',
    description: 'This issue is being actively worked on at the moment by the assignee.',
    category: 4,
  },
  { id: '10001', name: 'Done', description: '', category: 3 },
] as const;
export const STATUS_CATEGORIES: Record<number, { key: string; colorName: string; name: string }> = {
  2: { key: 'new', colorName: 'blue-gray', name: 'To Do' },
  4: { key: 'indeterminate', colorName: 'yellow', name: 'In Progress' },
  3: { key: 'done', colorName: 'green', name: 'Done' },
};
/** Global transitions of the simplified workflow both projects use: one into each status. */
export const TRANSITIONS = [
  { id: '11', name: 'To Do', to: '10000' },
  { id: '21', name: 'In Progress', to: '3' },
  { id: '31', name: 'Done', to: '10001' },
] as const;
export const ISSUE_TYPES = [
  {
    id: '10001',
    name: 'Task',
    description: 'A small, distinct piece of work.',
    subtask: false,
    hierarchyLevel: 0,
    avatarId: 10318,
  },
  {
    id: '10002',
    name: 'Bug',
    description: 'A problem or error.',
    subtask: false,
    hierarchyLevel: 0,
    avatarId: 10303,
  },
  {
    id: '10003',
    name: 'Story',
    description: "A user story: functionality expressed as a user's goal.",
    subtask: false,
    hierarchyLevel: 0,
    avatarId: 10315,
  },
  {
    id: '10004',
    name: 'Epic',
    description: 'A big user story that needs to be broken down.',
    subtask: false,
    hierarchyLevel: 1,
    avatarId: 10307,
  },
  {
    id: '10005',
    name: 'Subtask',
    description: 'A small piece of work that is part of a larger task.',
    subtask: true,
    hierarchyLevel: -1,
    avatarId: 10316,
  },
] as const;
export const PRIORITIES = [
  { id: '1', name: 'Highest' },
  { id: '2', name: 'High' },
  { id: '3', name: 'Medium' },
  { id: '4', name: 'Low' },
  { id: '5', name: 'Lowest' },
] as const;
export const RESOLUTION_DONE = {
  id: '10000',
  name: 'Done',
  description: 'Work has been completed on this issue.',
};
export const LINK_TYPES = [
  { id: '10000', name: 'Blocks', inward: 'is blocked by', outward: 'blocks' },
  { id: '10001', name: 'Cloners', inward: 'is cloned by', outward: 'clones' },
  { id: '10002', name: 'Duplicate', inward: 'is duplicated by', outward: 'duplicates' },
  { id: '10003', name: 'Relates', inward: 'relates to', outward: 'relates to' },
] as const;
