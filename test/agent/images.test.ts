import { describe, expect, it } from "vitest";
import { checkImages, imageFromBytes, imageParts, IMAGE_TOKEN_ESTIMATE, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, sniffImageType } from "../../lib/agent/images";
import { estimateTokens, promptChars, toModelPrompt, type AgentMessage } from "../../lib/agent/messages";
import { harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const WEBP = new Uint8Array([...new TextEncoder().encode("RIFF"), 4, 0, 0, 0, ...new TextEncoder().encode("WEBPVP8 ")]);

describe("images", () => {
  it("reads the type from the bytes, not the name", () => {
    expect([PNG, JPEG, GIF, WEBP].map(sniffImageType)).toEqual(["image/png", "image/jpeg", "image/gif", "image/webp"]);
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns=...>"))).toBeUndefined();
    expect(imageFromBytes(PNG, "photo.jpg")).toMatchObject({ mediaType: "image/png", bytes: PNG.length, name: "photo.jpg" });
    expect(() => imageFromBytes(new TextEncoder().encode("not an image"), "notes.txt")).toThrow('"notes.txt" is not a PNG, JPEG, GIF or WebP image.');
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG.subarray(0, 8));
    expect(() => imageFromBytes(big, "huge.png")).toThrow(/"huge\.png" is 5\.0 MB; an image can be at most 5 MB/);
  });

  it("checks images again as they enter a session: data, type, count", () => {
    const ok = imageFromBytes(PNG);
    expect(checkImages([{ ...ok, mediaType: "image/gif" }])[0]!.mediaType).toBe("image/png"); // a wrong label is corrected
    expect(() => checkImages([{ mediaType: "image/png", data: "%%%" }])).toThrow("Image 1 has no valid base64 data.");
    expect(() => checkImages([null])).toThrow("Image 1 has no valid base64 data.");
    expect(() => checkImages(Array(MAX_IMAGES_PER_MESSAGE + 1).fill(ok))).toThrow(`at most ${MAX_IMAGES_PER_MESSAGE} images`);
    expect(checkImages(undefined)).toEqual([]);
  });

  it("goes to the model as file parts before the text, and counts as an image's tokens, not its base64", () => {
    const img = imageFromBytes(PNG, "shot.png");
    const m: AgentMessage = { id: "u", role: "user", createdAt: 0, content: [{ type: "text", text: "what is wrong here?" }], images: [img] };
    const prompt = toModelPrompt("", [m]);
    expect(prompt[0]).toEqual({ role: "user", content: [...imageParts([img]), { type: "text", text: "what is wrong here?" }] });
    expect(imageParts([img])[0]).toEqual({ type: "file", mediaType: "image/png", data: { type: "data", data: img.data }, filename: "shot.png" });
    const big = { ...img, data: "A".repeat(4_000_000) };
    const withBig: AgentMessage = { ...m, images: [big] };
    expect(estimateTokens([withBig])).toBeLessThan(IMAGE_TOKEN_ESTIMATE + 100);
    expect(promptChars(toModelPrompt("", [withBig]))).toBeLessThan(IMAGE_TOKEN_ESTIMATE * 4 + 400);
    // An image alone: no empty text part (providers refuse one).
    const alone: AgentMessage = { ...m, content: [{ type: "text", text: "" }] };
    expect(toModelPrompt("", [alone])[0]!.content).toHaveLength(1);
  });

  it("a session sends them with the prompt, keeps them, and sends them again on edit & resend", async () => {
    const t = h([{ text: "I see a red square." }, { text: "Again." }]);
    const img = imageFromBytes(PNG, "shot.png");
    await t.session.run("describe this", { images: [img] });
    const sent = t.model.calls[0]!.prompt.at(-1)!;
    expect(sent.role).toBe("user");
    expect((sent.content as { type: string }[]).map((p) => p.type)).toEqual(["file", "text"]);
    const user = t.session.toJSON().messages[0] as { images?: unknown[] };
    expect(user.images).toEqual([img]);
    await t.session.history.editAndResend(t.session.state.messages[0]!.id, "describe it briefly");
    expect((t.model.calls[1]!.prompt.at(-1)!.content as { type: string }[]).map((p) => p.type)).toEqual(["file", "text"]);
  });

  it("refuses bad images before anything starts, and a model known to take no images fails the run clearly", async () => {
    const t = h([{ text: "never" }]);
    await expect(t.session.run("x", { images: [{ mediaType: "image/png", data: "bm90IGFuIGltYWdl", bytes: 12 }] })).rejects.toThrow("is not a PNG, JPEG, GIF or WebP image");
    expect(t.session.state.messages).toHaveLength(0);
    const text = h([{ text: "never" }], { modelId: "gpt-3.5-turbo" });
    const r = await text.session.run("look", { images: [imageFromBytes(PNG)] });
    expect(r.status).toBe("failed");
    expect(r.reason).toMatch(/^gpt-3\.5-turbo does not accept images/);
    expect(text.model.calls).toHaveLength(0);
  });

  it("a slash command with images is a prompt, not a command", async () => {
    const t = h([{ text: "ok" }]);
    const r = await t.session.run("/clear", { images: [imageFromBytes(PNG)] });
    expect(r.command).toBeUndefined();
    expect(t.model.calls).toHaveLength(1);
  });
});
