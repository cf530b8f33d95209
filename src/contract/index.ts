export * from "./auth";
export * from "./courses";
export * from "./enrollments";
export * from "./entities";
export * from "./limits";
export * from "./messages";
export * from "./progress";
export * from "./reports";
