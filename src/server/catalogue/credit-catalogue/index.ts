export { registerCreditCatalogueRoutes } from "./credit-catalogue.routes";
export type { CreditCatalogueService } from "./credit-catalogue.service";
export { createCreditCatalogueService } from "./credit-catalogue.service";
export {
  catalogueTypeNames,
  creditTypesOfCourse,
  creditTypesOfCourses,
} from "./credit-offers.read-model";
export { creditTypeCourses } from "./credit-offers.report";
