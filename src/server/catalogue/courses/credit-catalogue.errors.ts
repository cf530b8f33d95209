import { CATALOGUE_MESSAGES } from "../../../contract";
import { conflict, invalidField, notFound } from "../../plugins/errors";

export const bodyNotFound = () =>
  notFound("catalogue.body_not_found", CATALOGUE_MESSAGES.bodyNotFound);
export const typeNotFound = () =>
  notFound("catalogue.type_not_found", CATALOGUE_MESSAGES.typeNotFound);
export const bodyNameTaken = (name: string) =>
  conflict("catalogue.body_name_taken", CATALOGUE_MESSAGES.bodyNameTaken(name));
export const typeNameTaken = (name: string) =>
  conflict("catalogue.type_name_taken", CATALOGUE_MESSAGES.typeNameTaken(name));
export const bodyInUse = (types: number) =>
  conflict("catalogue.body_in_use", CATALOGUE_MESSAGES.bodyInUse(types));
export const typeInUse = (courses: number) =>
  conflict("catalogue.type_in_use", CATALOGUE_MESSAGES.typeInUse(courses));
export const mergeIntoItself = () =>
  conflict("catalogue.merge_conflict", CATALOGUE_MESSAGES.mergeIntoItself);
export const mergeBothOffered = (courses: number) =>
  conflict("catalogue.merge_conflict", CATALOGUE_MESSAGES.mergeBothOffered(courses));
export const offeredTwice = () =>
  invalidField("courses.credit_type_not_found", "types", "Each credit type can be offered once.");
