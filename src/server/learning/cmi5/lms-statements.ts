import { randomUUID } from "node:crypto";
import type { Cmi5Au } from "../../catalogue";
import type { SatisfiedNode } from "./move-on";
import {
  ACTIVITY_TYPE,
  type AccountAgent,
  CATEGORY,
  EXTENSION,
  isoDuration,
  VERBS,
  XAPI_VERSION,
} from "./xapi-values";

/** The activity ids the portal gives a cmi5 course's parts: its own, never the publisher's. */
export interface ActivityIds {
  au(index: number): string;
  block(index: number): string;
  course(): string;
}

/** Ids under the portal's origin, one set per package (a package never changes). */
export const activityIdsOf = (portalOrigin: string, packageId: string): ActivityIds => {
  const base = `${portalOrigin}/cmi5/packages/${encodeURIComponent(packageId)}`;
  return {
    au: (index) => `${base}/au/${index}`,
    block: (index) => `${base}/block/${index}`,
    course: () => `${base}/course`,
  };
};

export interface Issue {
  agent: AccountAgent;
  registration: string;
  sessionId: string;
  /** Who stores it: the LMS, as xAPI's authority. */
  authority: AccountAgent;
  now: Date;
}

type Statement = Record<string, unknown> & { id: string };

const verb = (id: string, word: string) => ({ id, display: { "en-US": word } });

function base(issue: Issue, verbId: string, word: string, object: unknown, context: object) {
  return {
    id: randomUUID(),
    actor: issue.agent,
    verb: verb(verbId, word),
    object,
    context: {
      registration: issue.registration,
      ...context,
    },
    timestamp: issue.now.toISOString(),
    stored: issue.now.toISOString(),
    authority: issue.authority,
    version: XAPI_VERSION,
  };
}

const auObject = (activityId: string, au: Cmi5Au) => ({
  objectType: "Activity",
  id: activityId,
  definition: {
    name: { "en-US": au.title },
    ...(au.activityType ? { type: au.activityType } : {}),
  },
});

/** The context the AU's statements start from (LMS.LaunchData's contextTemplate, cmi5 10). */
export const contextTemplateOf = (sessionId: string, au: Cmi5Au) => ({
  contextActivities: { grouping: [{ objectType: "Activity", id: au.id }] },
  extensions: { [EXTENSION.sessionId]: sessionId },
});

/** The LMS's `launched` statement (cmi5 9.3.1 and 9.6.3). */
export function launchedStatement(
  issue: Issue,
  au: Cmi5Au,
  activityId: string,
  launch: { mode: string; url: string },
): Statement {
  return base(issue, VERBS.launched, "launched", auObject(activityId, au), {
    contextActivities: {
      category: [{ id: CATEGORY.cmi5 }],
      grouping: [{ objectType: "Activity", id: au.id }],
    },
    extensions: {
      [EXTENSION.sessionId]: issue.sessionId,
      [EXTENSION.launchMode]: launch.mode,
      [EXTENSION.launchUrl]: launch.url,
      [EXTENSION.moveOn]: au.moveOn,
      ...(au.masteryScore !== null ? { [EXTENSION.masteryScore]: au.masteryScore } : {}),
      ...(au.launchParameters !== null
        ? { [EXTENSION.launchParameters]: au.launchParameters }
        : {}),
    },
  });
}

/** The LMS's `abandoned` statement for a session the AU never terminated (cmi5 9.3.6). */
export function abandonedStatement(
  issue: Issue,
  au: Cmi5Au,
  activityId: string,
  seconds: number,
): Statement {
  return {
    ...base(issue, VERBS.abandoned, "abandoned", auObject(activityId, au), {
      contextActivities: {
        category: [{ id: CATEGORY.cmi5 }],
        grouping: [{ objectType: "Activity", id: au.id }],
      },
      extensions: { [EXTENSION.sessionId]: issue.sessionId },
    }),
    result: { duration: isoDuration(seconds) },
  };
}

/** The LMS's `waived` statement (cmi5 9.3.7): the AU counts without being taken. */
export function waivedStatement(
  issue: Issue,
  au: Cmi5Au,
  activityId: string,
  reason: string,
): Statement {
  return {
    ...base(issue, VERBS.waived, "waived", auObject(activityId, au), {
      contextActivities: {
        category: [{ id: CATEGORY.cmi5 }, { id: CATEGORY.moveOn }],
        grouping: [{ objectType: "Activity", id: au.id }],
      },
      extensions: { [EXTENSION.sessionId]: issue.sessionId },
    }),
    result: { success: true, completion: true, extensions: { [EXTENSION.reason]: reason } },
  };
}

/** The LMS's `satisfied` statement for a block or the course (cmi5 9.3.9). */
export function satisfiedStatement(
  issue: Issue,
  node: SatisfiedNode,
  ids: ActivityIds,
  title: string,
): Statement {
  const object = {
    objectType: "Activity",
    id: node.kind === "course" ? ids.course() : ids.block(node.index),
    definition: {
      type: node.kind === "course" ? ACTIVITY_TYPE.course : ACTIVITY_TYPE.block,
      name: { "en-US": title },
    },
  };
  return base(issue, VERBS.satisfied, "satisfied", object, {
    contextActivities: {
      category: [{ id: CATEGORY.cmi5 }],
      grouping: [{ objectType: "Activity", id: node.publisherId }],
    },
    extensions: { [EXTENSION.sessionId]: issue.sessionId },
  });
}
