import type {
  ActivityBody,
  Category,
  CreditSettingsBody,
  ExamSettingsBody,
  QuestionInput,
} from "../../src/contract";
import type { CatalogueKey } from "./provider";

/** A review or final-exam question as the demo writes it; pool and module come from its place. */
type DemoQuestion = Omit<QuestionInput, "pool" | "moduleId">;

/**
 * An accredited course of the demo, written the way its accreditor asks for it: the credit it
 * offers from the catalogue, with its own amounts, the activity page, and what its
 * certificate prints.
 */
export interface DemoCourse {
  title: string;
  category: Category;
  /** Hours, as the course card shows them. */
  duration: number;
  /** The thumbnail's gradient, where ffmpeg can draw one. */
  colors: readonly [string, string];
  description: string;
  credit: {
    type: CatalogueKey;
    amount: number;
    designationStatement: string;
    /** The smallest part a learner may claim (AMA credit); null for all or nothing. */
    claimStep: number | null;
  }[];
  activity: ActivityBody;
  creditSettings: CreditSettingsBody;
  exam: ExamSettingsBody | null;
  modules: { title: string; duration: number; description: string; review: DemoQuestion[] }[];
  final: DemoQuestion[];
}
