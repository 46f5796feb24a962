import Foundation
import Hummingbird

// The event stream each page keeps open: how pages learn of changes, and how the server knows
// which pages are still there.
extension EditorRoutes {
    static func addEvents(to router: Router<EditorRequestContext>, _ state: EditorState) {
        router.get("/api/events") { request, _ in
            await answering {
                let page = try request.page
                let stream = await state.events.connect(page: page)
                // A page whose stream came back (EventSource reconnects by itself) keeps its documents.
                await state.desk.pageReturned(page)
                var headers = HTTPFields()
                headers[.contentType] = "text/event-stream"
                return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                    for await frame in stream {
                        try await writer.write(ByteBuffer(string: frame))
                    }
                    try await writer.finish(nil)
                })
            }
        }
    }
}
