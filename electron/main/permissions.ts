/** The window may use the camera and nothing else (no microphone, location, notifications…). */
import type { Session } from 'electron';

export function allowCameraOnly(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const media = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    callback(permission === 'media' && media.length > 0 && media.every((m) => m === 'video'));
  });
  session.setPermissionCheckHandler((_wc, permission, _origin, details) => permission === 'media' && details.mediaType === 'video');
}
