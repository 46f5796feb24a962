import GalleryTestSupport
import Testing

/// The editor and another application on a real X desktop (Xvfb), in Chromium and in Firefox ESR,
/// both headed: a GTK 3 window offers a phone-like photo (GPS EXIF, an ICC profile) by XDND and
/// xdotool drags it onto the editor's grid; the photo, opened in the detail view, is Alt-dragged
/// out onto a GTK window that takes files as a file manager does (XdndDirectSave). The gallery on
/// disk (`imagegallery list --json`) and the file dragged out are compared byte for byte with the
/// photo (Tests/Browser/check-editor-desktop-drops.py, with xdnd_window.py and bidi.py).
@Suite("Editor and the desktop's drag and drop")
struct EditorDesktopDropTests {
    @Test func aPhotoIsDroppedFromAnotherApplicationAndDraggedBackOutInChromiumAndFirefox() async throws {
        try await EditorBrowserCheck.run(
            "check-editor-desktop-drops.py", artifacts: TestPaths.repository + "/.build/test-artifacts/editor-desktop",
            scenarios: ["a phone-like photo",
                        "Chromium: drop from another application", "Chromium: drag out to another application",
                        "Firefox: drop from another application", "Firefox: drag out to another application"],
            screenshots: [])
    }
}
