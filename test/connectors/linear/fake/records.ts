// The record shapes of the Linear fake's dataset, one per SDL object type it serves (Organization, User, Team,
// WorkflowState, ProjectStatus, Project, Issue, Comment), with the SDL's member names. Timestamps are epoch ms
// (rendered as ISO-8601 DateTime strings); TimelessDate members are `YYYY-MM-DD` strings.

export interface OrganizationRecord {
  id: string;
  name: string;
  urlKey: string;
  createdAt: number;
  updatedAt: number;
}

export interface UserRecord {
  id: string;
  name: string;
  displayName: string;
  email: string;
  active: boolean;
  admin: boolean;
  guest: boolean;
  app: boolean;
  timezone: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
  lastSeen: number | null;
}

export interface TeamRecord {
  id: string;
  key: string;
  name: string;
  description: string;
  color: string;
  icon: string;
  timezone: string;
  private: boolean;
  memberIds: string[];
  createdAt: number;
  updatedAt: number;
}

export interface StateRecord {
  id: string;
  teamId: string;
  name: string;
  /** triage, backlog, unstarted, started, completed or canceled */
  type: string;
  color: string;
  position: number;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectStatusRecord {
  id: string;
  name: string;
  /** ProjectStatusType: backlog, planned, started, paused, completed, canceled */
  type: string;
  color: string;
  position: number;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectRecord {
  id: string;
  slugId: string;
  name: string;
  description: string;
  content: string | null;
  color: string;
  icon: string | null;
  priority: number;
  statusId: string;
  leadId: string | null;
  creatorId: string;
  teamIds: string[];
  memberIds: string[];
  startDate: string | null;
  targetDate: string | null;
  sortOrder: number;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
  canceledAt: number | null;
}

export interface IssueRecord {
  id: string;
  teamId: string;
  number: number;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  stateId: string;
  assigneeId: string | null;
  creatorId: string;
  projectId: string | null;
  parentId: string | null;
  dueDate: string | null;
  sortOrder: number;
  previousIdentifiers: string[];
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
  canceledAt: number | null;
}

export interface CommentRecord {
  id: string;
  issueId: string;
  userId: string;
  body: string;
  parentId: string | null;
  createdAt: number;
  updatedAt: number;
  editedAt: number | null;
}
