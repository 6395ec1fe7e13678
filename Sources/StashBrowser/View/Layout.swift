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
  /// The fewest rows that show the waveform strip over the scrubber; below, the plain scrubber
  /// leaves the panes their row (at 10 or 11 rows a pane has only 6 or 7).
  package static let stripMinimumHeight = 12

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
  /// The waveform strip over the scrubber (its columns exactly), when shown.
  package var strip: Rect? = nil

  /// The layout for a `width` x `height` terminal with `focus` deciding the pane when narrow;
  /// `scrubber` is the transport line's scrubber columns when it has one: the strip goes over it
  /// on a row of its own when the terminal has `stripMinimumHeight` rows.
  package static func make(
    width: Int, height: Int, focus: BrowserModel.Focus, scrubber: Range<Int>? = nil
  ) -> Layout {
    let tooSmall = width < minimumWidth || height < minimumHeight
    let strips = scrubber != nil && height >= stripMinimumHeight && !tooSmall
    let above = strips ? 1 : 0
    let header = Rect(x: 0, y: 0, width: width, height: 1)
    let status = Rect(x: 0, y: max(0, height - 2 - above), width: width, height: 1)
    let transport = Rect(x: 0, y: max(0, height - 1), width: width, height: 1)
    let body = Rect(x: 0, y: 1, width: width, height: max(0, height - 3 - above))
    var layout = arrange(
      width: width, focus: focus, tooSmall: tooSmall, header: header, body: body, status: status,
      transport: transport)
    if strips, let scrubber {
      layout.strip = Rect(x: scrubber.lowerBound, y: height - 2, width: scrubber.count, height: 1)
    }
    return layout
  }

  /// The panes in `body`: side by side when wide, else the one `focus` names.
  private static func arrange(
    width: Int, focus: BrowserModel.Focus, tooSmall: Bool, header: Rect, body: Rect, status: Rect,
    transport: Rect
  ) -> Layout {
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
  /// The layout for the current size and focus, with the strip over the scrubber when it shows.
  package var layout: Layout {
    Layout.make(width: width, height: height, focus: focus, scrubber: scrubberRange)
  }

  /// The transport line's scrubber columns now, or nil when it shows none.
  package var scrubberRange: Range<Int>? {
    TransportLine.scrubberRange(
      width: width, snapshot: shownTransport, name: shownRow?.displayName, extras: transportExtras)
  }
}
