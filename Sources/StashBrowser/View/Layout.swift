/// Where each part of the screen goes for a terminal size: side by side when wide, one pane at a
/// time when narrow.
package struct Layout: Equatable, Sendable {
  /// The smallest terminal the browser draws in.
  package static let minimumWidth = 40
  package static let minimumHeight = 10
  /// From this width on, the list and the detail sit side by side.
  package static let sideBySideWidth = 90
  /// The widest the list grows when side by side (titles get the width less about 32 columns).
  package static let maximumListWidth = 100

  /// Whether the terminal is too small to draw in.
  package var tooSmall: Bool
  /// The top line: folder, count, total length, filter.
  package var header: Rect
  /// The memo list, when shown.
  package var list: Rect?
  /// The detail pane, when shown.
  package var detail: Rect?
  /// The column of the line between the panes, when side by side.
  package var divider: Int?
  /// The status line: messages, prompts, hints.
  package var status: Rect
  /// The transport line.
  package var transport: Rect

  /// The layout for a `width` x `height` terminal with `focus` deciding the pane when narrow.
  package static func make(width: Int, height: Int, focus: BrowserModel.Focus) -> Layout {
    let tooSmall = width < minimumWidth || height < minimumHeight
    let header = Rect(x: 0, y: 0, width: width, height: 1)
    let status = Rect(x: 0, y: max(0, height - 2), width: width, height: 1)
    let transport = Rect(x: 0, y: max(0, height - 1), width: width, height: 1)
    let body = Rect(x: 0, y: 1, width: width, height: max(0, height - 3))
    if width >= sideBySideWidth {
      // The list takes 9/20 of the width, so titles grow with a wide terminal, up to a cap that
      // leaves the transcript most of it (below 149 columns the list is as it always was).
      let listWidth = min(maximumListWidth, max(38, width * 9 / 20))
      return Layout(
        tooSmall: tooSmall, header: header,
        list: Rect(x: 0, y: body.y, width: listWidth, height: body.height),
        detail: Rect(x: listWidth + 1, y: body.y, width: width - listWidth - 1, height: body.height),
        divider: listWidth, status: status, transport: transport)
    }
    return Layout(
      tooSmall: tooSmall, header: header, list: focus == .list ? body : nil,
      detail: focus == .transcript ? body : nil, divider: nil, status: status, transport: transport)
  }
}

extension BrowserModel {
  /// The layout for the current size and focus.
  package var layout: Layout { Layout.make(width: width, height: height, focus: focus) }
}
