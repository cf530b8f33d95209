import { type CaptionUploadBody, type ModuleMedia, moduleMediaSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, parseAnswer } from "../../../lib/api-client";
import { setModuleMedia } from "./set-module-media";

type UploadCaptionInput = {
  courseId: string;
  moduleId: string;
  language: string;
  label: string;
  file: File;
  /** The share of the request sent so far, 0 to 100. */
  onProgress?: (percent: number) => void;
};

/** The file's bytes in base64: the server checks the file itself, not decoded text. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * PUT /api/courses/:id/modules/:moduleId/captions/:language. Sent with XMLHttpRequest, the
 * one browser API that reports upload progress; a refusal becomes the same ApiError, and the
 * answer is checked the same way, as every other request's (lib/api-client.ts).
 */
async function uploadCaption(input: UploadCaptionInput): Promise<ModuleMedia> {
  const body: CaptionUploadBody = {
    label: input.label,
    fileName: input.file.name,
    contentType: input.file.type,
    data: await base64Of(input.file),
  };
  const url = `/api/courses/${encodeURIComponent(input.courseId)}/modules/${encodeURIComponent(input.moduleId)}/captions/${encodeURIComponent(input.language)}`;
  const answer = await new Promise<string>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    request.withCredentials = true;
    request.setRequestHeader("Content-Type", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) input.onProgress?.((event.loaded / event.total) * 100);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve(request.responseText);
      else reject(new ApiError(request.status, request.responseText || request.statusText));
    };
    request.onerror = () => reject(new TypeError("Failed to fetch"));
    request.send(JSON.stringify(body));
  });
  return parseAnswer(moduleMediaSchema, url, answer);
}

export function useUploadCaption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCaption,
    onSuccess: (media, input) => setModuleMedia(queryClient, input, media),
  });
}
